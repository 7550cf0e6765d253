// `moor drift --accept`: each drifted live value written into the file that set it — the stack's
// overlay when the value came from one, the base otherwise, the stack's variable in moor.config.yaml
// when it came from `${var:}` — so the manifests say what runs. Secrets and `${env:}`/`${file:}`
// values are never written: they are named, to be changed where they come from.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fieldOf, isObject, valueText, type JsonPath, type JsonValue } from '../../core/json.js';
import type { Manifest } from '../manifest.js';
import type { FieldChange } from '../plan/types.js';
import type { PlannedStep } from '../plan/steps.js';
import { parseIgnorePath, type IgnoreSegment } from '../diff/ignore-paths.js';
import { SENSITIVE_MASK } from '../secrets.js';
import { YamlFileEdit } from './yaml-edit.js';
import type { StackVarValue } from '../config-stacks.js';

export interface AcceptRequest {
  /** Only these addresses; empty: every drifted resource. */
  readonly addresses: readonly string[];
  readonly cwd: string;
  /** The selected stack (its variables live in `configFile`). */
  readonly stack?: { readonly name: string; readonly vars: Readonly<Record<string, StackVarValue>> };
  /** moor.config.yaml, absolute. */
  readonly configFile?: string;
}

/** One file's text before and after the accept. */
export interface FileChange {
  readonly file: string;
  readonly shown: string;
  readonly before: string;
  readonly after: string;
}

export interface AcceptResult {
  readonly files: readonly FileChange[];
  /** Fields written, per address. */
  readonly accepted: readonly { readonly address: string; readonly path: string; readonly into: string }[];
  /** Drifted values not written, and why (a secret, an ${env:} value, …). */
  readonly refused: readonly string[];
}

const FOREIGN = /\$\{(env|file|ref):[^}]*\}/;
const VAR = /\$\{var:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** What accepting the plan's drift writes: each file's new text (nothing is written here). */
export function acceptDrift(steps: readonly PlannedStep[], request: AcceptRequest): AcceptResult {
  const edits = new Map<string, YamlFileEdit>();
  const editorOf = (file: string) => {
    let e = edits.get(file);
    if (!e) edits.set(file, (e = new YamlFileEdit(readFileSync(file, 'utf8'))));
    return e;
  };
  const shown = (file: string) => relative(request.cwd, file) || file;
  const accepted: { address: string; path: string; into: string }[] = [];
  const refused: string[] = [];
  const vars = new Map<string, { value: StackVarValue; from: string }>();
  const wanted = new Set(request.addresses);
  const unknown = new Set(request.addresses);

  for (const step of steps) {
    const { change, manifest } = step;
    unknown.delete(change.address);
    if (!change.drift || !manifest || (wanted.size > 0 && !wanted.has(change.address))) continue;
    if (change.action === 'create') {
      refused.push(`${change.address}: deleted outside moor; there is no live value to accept (apply creates it again, or remove its manifest)`);
      continue;
    }
    for (const f of change.fields.filter((x) => x.cause === 'drift')) {
      const where = `${change.address} ${f.path}`;
      const outcome = acceptField(manifest, f, editorOf, request, vars, shown);
      if (typeof outcome === 'string') refused.push(`${where}: ${outcome}`);
      else accepted.push({ address: change.address, path: f.path, into: outcome.into });
    }
  }
  for (const a of unknown) refused.push(`${a}: no manifest of this stack has this address`);
  if (vars.size > 0) writeVars(vars, editorOf, request, refused, accepted);
  const files = [...edits].map(([file, e]) => ({ file, shown: shown(file), before: e.text, after: e.result() })).filter((c) => c.before !== c.after);
  return { files, accepted, refused };
}

type EditorOf = (file: string) => YamlFileEdit;

/** Writes one drifted field; where it went, or why it cannot be written. */
function acceptField(
  manifest: Manifest,
  f: FieldChange,
  editorOf: EditorOf,
  request: AcceptRequest,
  vars: Map<string, { value: StackVarValue; from: string }>,
  shown: (file: string) => string,
): { into: string } | string {
  const live = f.before;
  if (f.sensitive || holdsMask(live)) return 'a secret (the service never shows it): change it where its value comes from';
  if (f.unknown) return 'known only after apply';
  const segments = parseIgnorePath(f.path);
  if (typeof segments === 'string') return `cannot follow the path (${segments})`;
  const found = resolveInSpec(manifest.spec, segments.segments);
  if (f.op === 'add') {
    // The manifest sets what live no longer has: the manifest lets it go.
    if (found.rest.length > 0) return 'the manifest does not set it';
    const setting = settingDocument(manifest, found.path, editorOf, shown);
    if (typeof setting === 'string') return setting;
    const { target, editor, doc } = setting;
    const raw = editor.valueAt(doc, target.at);
    const foreign = typeof raw === 'string' ? FOREIGN.exec(raw) : null;
    if (foreign) return `its value comes from ${foreign[0]}: remove it in ${shown(target.file)} by hand`;
    editor.remove(doc, target.at);
    return { into: shown(target.file) };
  }
  if (live === undefined) return 'live holds no value to accept';
  if (f.op === 'remove' && found.rest.length > 0) {
    // Live holds what the manifest never set: added where its nearest existing parent was set.
    const setting = settingDocument(manifest, found.path, editorOf, shown);
    if (typeof setting === 'string') return setting;
    const { target, editor, doc } = setting;
    const [first, ...rest] = found.rest;
    if (first.type === 'named' && rest.length === 0) editor.append(doc, target.at, live);
    else if (found.rest.every((s) => s.type === 'key')) editor.set(doc, [...target.at, ...found.rest.map((s) => (s as { key: string }).key)], live);
    else return 'its place in the manifest cannot be named';
    return { into: shown(target.file) };
  }
  if (found.rest.length > 0) return 'the manifest does not set it';
  const setting = settingDocument(manifest, found.path, editorOf, shown);
  if (typeof setting === 'string') return setting;
  const { target, editor, doc } = setting;
  const raw = editor.valueAt(doc, target.at);
  const rawText = typeof raw === 'string' ? raw : isObject(raw) || Array.isArray(raw) ? JSON.stringify(raw) : '';
  const foreign = FOREIGN.exec(rawText);
  if (foreign) return `its value comes from ${foreign[0]} (${shown(target.file)}): change that instead; accept never writes a secret or an environment's value`;
  if (typeof raw === 'string' && raw.includes('${var:')) return acceptIntoVars(raw, live, request, vars, shown);
  if (rawText.includes('${var:')) return 'it holds ${var:} placeholders inside: change it by hand';
  editor.set(doc, target.at, live);
  return { into: shown(target.file) };
}

/** A template such as `nginx:${var:imageTag}` matched against the live value: the variables it takes. */
function acceptIntoVars(
  template: string,
  live: JsonValue,
  request: AcceptRequest,
  vars: Map<string, { value: StackVarValue; from: string }>,
  shown: (file: string) => string,
): { into: string } | string {
  const stack = request.stack;
  if (!stack || !request.configFile) return `its value comes from ${template}, but no stack is selected`;
  const names = [...template.matchAll(VAR)].map((m) => m[1]);
  let taken: Record<string, StackVarValue>;
  if (names.length === 1 && template === `\${var:${names[0]}}`) {
    if (typeof live !== 'string' && typeof live !== 'number' && typeof live !== 'boolean')
      return `a variable (${template}) holds a string, number or boolean, not the live ${JSON.stringify(live)}`;
    taken = { [names[0]]: live };
  } else {
    const matched = typeof live === 'string' ? matchTemplate(template, live) : undefined;
    if (!matched) return `the live value ${JSON.stringify(live)} does not fit ${template}: edit it by hand`;
    taken = Object.fromEntries(Object.entries(matched).map(([n, v]) => [n, typedLike(v, stack.vars[n])]));
  }
  for (const [name, value] of Object.entries(taken)) {
    const known = vars.get(name);
    if (known && known.value !== value) return `stacks.${stack.name}.vars.${name} would take both ${JSON.stringify(known.value)} and ${JSON.stringify(value)}`;
    vars.set(name, { value, from: template });
  }
  return { into: `${shown(request.configFile)} (stacks.${stack.name}.vars.${names.join(', ')})` };
}

/** The variables' values that make `template` read `live`, or undefined when no values do. */
function matchTemplate(template: string, live: string): Record<string, string> | undefined {
  const seen = new Set<string>();
  const source = template
    .split(/(\$\{var:[A-Za-z_][A-Za-z0-9_]*\})/)
    .map((part) => {
      const name = /^\$\{var:(.+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (seen.has(name)) return `\\k<${name}>`;
      seen.add(name);
      return `(?<${name}>[\\s\\S]*?)`;
    })
    .join('');
  const m = new RegExp(`^${source}$`).exec(live);
  return m?.groups ? { ...m.groups } : undefined;
}

/** A captured text as the variable's type was (a number stays a number). */
function typedLike(text: string, old: StackVarValue | undefined): StackVarValue {
  if (typeof old === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (typeof old === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

function writeVars(
  vars: Map<string, { value: StackVarValue; from: string }>,
  editorOf: EditorOf,
  request: AcceptRequest,
  refused: string[],
  _accepted: { address: string; path: string; into: string }[],
): void {
  const { stack, configFile } = request;
  if (!stack || !configFile) return;
  const editor = editorOf(configFile);
  for (const [name, { value }] of vars) {
    if (stack.vars[name] === value) continue;
    const path = ['stacks', stack.name, 'vars', name];
    if (!editor.has(0, path)) {
      refused.push(`stacks.${stack.name}.vars.${name}: not found in ${relative(request.cwd, configFile)}`);
      continue;
    }
    editor.set(0, path, value);
  }
}

/** The file, editor and document that set a spec path; why not, when its document is not in that file. */
function settingDocument(
  manifest: Manifest,
  specPath: JsonPath,
  editorOf: EditorOf,
  shown: (file: string) => string,
): { target: { file: string; at: JsonPath }; editor: YamlFileEdit; doc: number } | string {
  const target = setterOf(manifest, specPath);
  const editor = editorOf(target.file);
  const doc = editor.documentOf(manifest.kind, manifest.name);
  return doc < 0 ? `its document is not found in ${shown(target.file)}` : { target, editor, doc };
}

/** Where a value of the merged manifest was set: its file and its path in that file's document. */
function setterOf(manifest: Manifest, specPath: JsonPath): { file: string; at: JsonPath } {
  const full = ['spec', ...specPath];
  const found = manifest.source.setterOf?.(full);
  return found ? { file: found.path, at: found.at } : { file: manifest.source.path, at: full };
}

/** The concrete path of a named path in the spec as far as it exists, and the segments beyond. */
function resolveInSpec(spec: JsonValue, segments: readonly IgnoreSegment[]): { path: (string | number)[]; rest: IgnoreSegment[] } {
  const path: (string | number)[] = [];
  let cur: JsonValue | undefined = spec;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    let next: { key: string | number; value: JsonValue } | undefined;
    if (s.type === 'named' && Array.isArray(cur)) {
      const at = cur.findIndex((e) => isObject(e) && fieldOf(e, s.key) !== undefined && valueText(e[s.key]) === s.value);
      if (at >= 0) next = { key: at, value: cur[at] };
    } else if (s.type === 'key' && Array.isArray(cur) && /^\d+$/.test(s.key) && Number(s.key) < cur.length) {
      next = { key: Number(s.key), value: cur[Number(s.key)] };
    } else if (s.type === 'key' && isObject(cur) && fieldOf(cur, s.key) !== undefined) {
      next = { key: s.key, value: cur[s.key] };
    }
    if (!next) return { path, rest: segments.slice(i) };
    path.push(next.key);
    cur = next.value;
  }
  return { path, rest: [] };
}

function holdsMask(value: JsonValue | undefined): boolean {
  if (value === SENSITIVE_MASK) return true;
  if (Array.isArray(value)) return value.some(holdsMask);
  if (isObject(value)) return Object.values(value).some(holdsMask);
  return false;
}

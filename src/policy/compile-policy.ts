// A Policy document compiled once per run: its match, severity and rules with their CEL programs;
// an expression that does not parse or type-check is a validation error at its line.
import type { Diagnostic, Severity } from '../core/diagnostics.js';
import { isObject, type JsonObject, type JsonPath } from '../core/json.js';
import type { KindCatalog } from '../core/kind-catalog.js';
import { fieldPath as shownPath } from '../core/field-path.js';
import type { Manifest } from '../engine/manifest.js';
import { allSites, type AllSite } from './all-sites.js';
import { compileCel, readsVariable, type CelProgram } from './cel.js';
import { parseFieldPath } from './field-path.js';
import { objectReads, unionReads, type ObjectReads } from './object-reads.js';
import { unknownFieldRead } from './field-reads.js';
import type { KindDefinition } from '../core/kind.js';
import { suggest } from '../engine/validate/ajv-messages.js';

export interface PolicyMatch {
  readonly kinds?: readonly string[];
  readonly stacks?: readonly string[];
  readonly names?: readonly RegExp[];
}

export interface CompiledRule {
  readonly index: number;
  readonly program: CelProgram;
  /** The rule reads `change`: validate, which plans nothing, leaves it out. */
  readonly usesChange: boolean;
  readonly message?: string;
  readonly messageProgram?: CelProgram;
  readonly fieldPath?: JsonPath;
  /** The all() calls over arrays of `object`, for pointing at the failing element. */
  readonly sites: readonly AllSite[];
  /** What of `object` the expression, the message expression and the fieldPath reach. */
  readonly reads: ObjectReads;
}

export interface CompiledPolicy {
  readonly name: string;
  readonly address: string;
  readonly severity: Severity;
  readonly match: PolicyMatch;
  readonly rules: readonly CompiledRule[];
  readonly document: Manifest;
}

/**
 * Every Policy of a run and their problems; `stacks`: the config's stack names ([] for none,
 * undefined: not known, nothing checked), each name in a `match.stacks` must be one of them.
 */
export function compilePolicies(
  documents: readonly Manifest[],
  kinds: KindCatalog,
  stacks?: readonly string[],
): { policies: CompiledPolicy[]; diagnostics: Diagnostic[] } {
  const compiled = documents.map((d) => compilePolicy(d, kinds, stacks));
  return { policies: compiled.map((c) => c.policy), diagnostics: compiled.flatMap((c) => c.diagnostics) };
}

/** The policy (its valid rules) and the problems of its document. */
export function compilePolicy(document: Manifest, kinds: KindCatalog, stacks?: readonly string[]): { policy: CompiledPolicy; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const report = (path: JsonPath, message: string) => {
    diagnostics.push({
      severity: 'error',
      code: 'policy.invalid',
      address: document.address,
      location: document.source.locate(path),
      message: `${shownPath(path)}: ${message}`,
    });
  };
  const spec = document.spec;
  const match = isObject(spec.match) ? spec.match : {};
  const kindNames = strings(match.kinds);
  kindNames?.forEach((k, i) => {
    if (!kinds.kindNamed(k)) report(['spec', 'match', 'kinds', i], `unknown kind ${k} (one of ${kinds.kinds.map((d) => d.kind).join(', ')})`);
  });
  const stackNames = strings(match.stacks);
  if (stacks) {
    stackNames?.forEach((s, i) => {
      if (!stacks.includes(s)) report(['spec', 'match', 'stacks', i], unknownStack(s, stacks));
    });
  }
  // A read is checked against the kinds the policy matches (every kind when it names none).
  const matched = kindNames ? kindNames.flatMap((k) => kinds.kindNamed(k) ?? []) : [...kinds.kinds];
  const rules = (Array.isArray(spec.rules) ? spec.rules : []).flatMap((r, i) => {
    const rule = isObject(r) ? compileRule(r, i, (path, message) => report(['spec', 'rules', i, ...path], message), matched, kinds) : undefined;
    return rule ? [rule] : [];
  });
  const policy: CompiledPolicy = {
    name: document.name,
    address: document.address,
    severity: spec.severity === 'warning' ? 'warning' : 'error',
    match: { kinds: kindNames, stacks: stackNames, names: strings(match.names)?.map(globPattern) },
    rules,
    document,
  };
  return { policy, diagnostics };
}

/** A stack name the config does not have, with the nearest one it has. */
function unknownStack(name: string, stacks: readonly string[]): string {
  if (stacks.length === 0) return `no stack ${name}: moor.config.yaml has no stacks, so the policy would match nothing`;
  const near = suggest(name, { properties: Object.fromEntries(stacks.map((s) => [s, {}])) });
  return `no stack ${name} in moor.config.yaml, so the policy would match nothing there${near}`;
}

function compileRule(
  rule: JsonObject,
  index: number,
  report: (path: JsonPath, message: string) => void,
  matched: readonly KindDefinition[],
  kinds: KindCatalog,
): CompiledRule | undefined {
  // Not a string: the document's schema says so (and only a valid document's rules are evaluated); compiled, it would
  // read as '[object Object]' and add a CEL syntax error beside the schema's.
  if (typeof rule.expression !== 'string') return undefined;
  const expression = compileCel(rule.expression, 'bool');
  if (!expression.ok) report(['expression'], withOffset(expression.message, expression.offset));
  const misread = expression.ok ? unknownFieldRead(expression.program.ast, matched, kinds) : undefined;
  if (misread) report(['expression'], misread);
  const messageProgram = typeof rule.messageExpression === 'string' ? compileCel(rule.messageExpression, 'string') : undefined;
  if (messageProgram && !messageProgram.ok) report(['messageExpression'], withOffset(messageProgram.message, messageProgram.offset));
  const path = typeof rule.fieldPath === 'string' ? parseFieldPath(rule.fieldPath) : undefined;
  if (path && !path.ok) report(['fieldPath'], path.message);
  if (!expression.ok || misread || (messageProgram && !messageProgram.ok) || (path && !path.ok)) return undefined;
  const program = expression.program;
  return {
    index,
    program,
    usesChange: readsVariable(program.ast, 'change'),
    ...(typeof rule.message === 'string' ? { message: rule.message } : {}),
    ...(messageProgram?.ok ? { messageProgram: messageProgram.program } : {}),
    ...(path?.ok ? { fieldPath: path.path } : {}),
    sites: path?.ok ? allSites(program.ast) : [],
    reads: unionReads([objectReads(program.ast), messageProgram?.ok ? objectReads(messageProgram.program.ast) : [], path?.ok ? [path.path] : []]),
  };
}

function withOffset(message: string, offset: number | undefined): string {
  return offset === undefined ? message : `${message} (at character ${offset + 1} of the expression)`;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

/** A name pattern: `*` matches any characters, everything else itself. */
function globPattern(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

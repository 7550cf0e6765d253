// `ignore:` rules of moor.config.yaml (top level, and per stack): fields another system owns for
// every resource of a kind, e.g. `ignore: [{kind: ContainerGroup, paths: [/tags/*]}]`. Their shape is
// checked when the config is read; their kinds and paths once the kinds are known (ignoreRuleProblems).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LineCounter, parseDocument, isNode, type Node } from 'yaml';
import { UserError, type Diagnostic, type SourceLocation } from '../core/diagnostics.js';
import { isObject } from '../core/json.js';
import type { KindCatalog } from '../core/kind-catalog.js';
import type { Manifest } from './manifest.js';
import { checkIgnorePath } from './validate/check-ignore-paths.js';
import type { IgnorePath } from './diff/ignore-paths.js';

export interface IgnoreRule {
  readonly kind: string;
  readonly paths: readonly string[];
  /** Where the rule sits in the config file (['ignore', 0] or ['stacks', 'prod', 'ignore', 0]). */
  readonly at: readonly (string | number)[];
}

/** The `ignore:` list at `at` of the config, its shape checked. */
export function parseIgnoreRules(value: unknown, file: string, at: readonly (string | number)[]): IgnoreRule[] {
  if (value === undefined || value === null) return [];
  const where = `${file}: ${at.join('.')}`;
  if (!Array.isArray(value)) throw new UserError(`${where} must be a list of {kind: KIND, paths: [PATH...]}`);
  return value.map((rule, i) => {
    if (
      !isObject(rule) ||
      typeof rule.kind !== 'string' ||
      !Array.isArray(rule.paths) ||
      !rule.paths.every((p) => typeof p === 'string') ||
      Object.keys(rule).some((k) => k !== 'kind' && k !== 'paths')
    ) {
      throw new UserError(`${where}[${i}] must be {kind: KIND, paths: [PATH...]} (paths as plan prints them, e.g. /tags/*)`);
    }
    return { kind: rule.kind, paths: rule.paths, at: [...at, i] };
  });
}

/** The rules' unknown kinds and impossible paths, at their line:col in the config file. */
export function ignoreRuleProblems(rules: readonly IgnoreRule[], kinds: KindCatalog, configFile: string | undefined, cwd: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  let locate: ((path: readonly (string | number)[]) => SourceLocation) | undefined;
  const at = (path: readonly (string | number)[]) => (locate ??= configLocator(configFile ?? 'moor.config.yaml', cwd))(path);
  for (const rule of rules) {
    const kind = kinds.kindNamed(rule.kind);
    if (!kind) {
      out.push({
        severity: 'error',
        code: 'config.ignore',
        message: `${rule.at.join('.')}.kind: no kind ${rule.kind} (kinds: ${kinds.kinds.map((k) => k.kind).join(', ')})`,
        location: at([...rule.at, 'kind']),
      });
      continue;
    }
    rule.paths.forEach((text, i) => {
      const checked = checkIgnorePath(text, kind);
      if (typeof checked === 'string')
        out.push({ severity: 'error', code: 'config.ignore', message: `${rule.at.join('.')}.paths[${i}]: ${checked}`, location: at([...rule.at, 'paths', i]) });
    });
  }
  return out;
}

/** The ignore paths that hold for one manifest: its own, and the rules' for its kind (those that parse). */
export function ignorePathsOf(manifest: Manifest, rules: readonly IgnoreRule[], kinds: KindCatalog): IgnorePath[] {
  const kind = kinds.kindNamed(manifest.kind);
  if (!kind) return [];
  const texts = [...(manifest.ignoreChanges ?? []), ...rules.filter((r) => r.kind === manifest.kind).flatMap((r) => r.paths)];
  if (texts.length === 0) return [];
  return texts.map((t) => checkIgnorePath(t, kind)).filter((p): p is IgnorePath => typeof p !== 'string');
}

/** Finds positions in the config file (parsed again, with positions, only when a rule is wrong). */
function configLocator(file: string, cwd: string): (path: readonly (string | number)[]) => SourceLocation {
  let text = '';
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch {
    /* positions fall back to the file's start */
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  return (path) => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true);
      const range = isNode(node) ? (node as Node).range : undefined;
      if (range) {
        const { line, col } = lines.linePos(range[0]);
        return { file, line, col };
      }
    }
    return { file, line: 1, col: 1 };
  };
}

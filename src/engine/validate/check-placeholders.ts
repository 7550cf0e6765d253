// Checks the `${...}` placeholders of a spec and warns of secrets written as literals.
import { pattern, underPattern, type JsonObject, type JsonPath } from '../../core/json.js';
import { scanReferences } from '../../core/references.js';
import type { KindDefinition } from '../../core/kind.js';
import { fieldPath } from '../../core/field-path.js';
import type { SpecProblem } from './spec-problem.js';
import { forEachString } from './walk-strings.js';

const splitPatterns = new Map<string, string[][]>();

function sensitivePatterns(kind: KindDefinition): string[][] {
  let list = splitPatterns.get(kind.kind);
  if (!list) {
    list = kind.sensitive.map(pattern);
    splitPatterns.set(kind.kind, list);
  }
  return list;
}

/** Placeholder syntax errors (at the value) and literal secrets (warnings); never shows a secret. */
export function checkPlaceholders(kind: KindDefinition, spec: JsonObject): SpecProblem[] {
  const out: SpecProblem[] = [];
  const secrets = sensitivePatterns(kind);
  forEachString(spec, (path, text) => {
    const full = (): JsonPath => ['spec', ...path];
    const scanned = text.includes('${') ? scanReferences(text) : undefined;
    for (const e of scanned?.errors ?? []) {
      out.push({ path: full(), at: 'value', message: `${fieldPath(full())}: ${e.message}`, severity: 'error', code: 'reference.syntax', placeholder: e.raw });
    }
    if (text === '' || secrets.length === 0 || !secrets.some((p) => underPattern(path, p))) return;
    // A malformed placeholder is one error, not also a literal secret.
    // Every reference (env, file, ref) takes its value from outside the manifest.
    const external = scanned ? scanned.errors.length > 0 || scanned.refs.length > 0 : false;
    if (!external) {
      out.push({
        path: full(),
        at: 'value',
        severity: 'warning',
        code: 'secret.literal',
        message: `${fieldPath(full())}: a secret written in the manifest; use \${env:NAME} or \${file:path}`,
      });
    }
  });
  return out;
}

// validate types an `${env:}` that is the whole value of a number or boolean field, as plan will,
// and checks the typed value by the field's rules: `cpu: ${env:CPU}` with CPU=two fails here, not
// in plan. Such a value is never a secret (secrets are strings), so validate may read it; when
// the variable is not set, validate says it cannot check the field. `${file:}` stays plan's
// business: validate reads no file.
import type { Diagnostic } from '../../core/diagnostics.js';
import { fieldPath } from '../../core/field-path.js';
import type { JsonObject, JsonPath, JsonValue } from '../../core/json.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { KindDefinition } from '../../core/kind.js';
import { scanReferences, type Reference } from '../../core/references.js';
import { locatePlaceholder } from '../load/placeholder-location.js';
import type { Manifest } from '../manifest.js';
import { filledTypeAt, typedText } from '../placeholder-types.js';
import { valueFile } from '../resolve.js';
import { ruleProblems } from './rule-problems.js';
import { validateSpec } from './spec-validator.js';
import { forEachString } from './walk-strings.js';

/** Errors of typed placeholders: a variable not set, text that is not of the field's type, a typed value the rules refuse. */
export function checkTypedPlaceholders(manifests: readonly Manifest[], kinds: KindCatalog, env: NodeJS.ProcessEnv): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const manifest of manifests) {
    const kind = kinds.kindNamed(manifest.kind);
    if (!kind) continue;
    const filled: { path: JsonPath; value: number | boolean; ref: Reference }[] = [];
    forEachString(manifest.spec, (path, text) => {
      if (!text.startsWith('${env:') || !text.endsWith('}')) return;
      const { refs } = scanReferences(text);
      if (refs.length !== 1 || refs[0].raw !== text || refs[0].type !== 'env') return;
      const type = filledTypeAt(kind.specSchema, path);
      if (type === undefined) return;
      const ref = refs[0];
      const at = (message: string) =>
        out.push({
          severity: 'error',
          address: manifest.address,
          code: 'placeholder.type',
          message,
          location: locatePlaceholder(manifest.source.locate(['spec', ...path]), ref.raw, 0, valueFile(manifest, ['spec', ...path])),
        });
      const where = fieldPath(['spec', ...path]);
      const value = env[ref.name];
      if (value === undefined) {
        at(
          `${where}: ${ref.raw} fills a ${type === 'boolean' ? 'boolean' : 'number'} field and ${ref.name} is not set: validate types it as plan will (it is no secret); set ${ref.name} where validate runs, or write the value`,
        );
        return;
      }
      const typed = typedText(value, type);
      if (!typed.ok) at(`${where}: ${typed.message} (from ${ref.raw})`);
      else filled.push({ path: [...path], value: typed.value, ref });
    });
    if (filled.length > 0) out.push(...typedValueProblems(manifest, kind, filled));
  }
  return out;
}

/** The field rules on the spec with its typed placeholders filled in, at those fields only. */
function typedValueProblems(
  manifest: Manifest,
  kind: KindDefinition,
  filled: readonly { path: JsonPath; value: number | boolean; ref: Reference }[],
): Diagnostic[] {
  const spec = structuredClone<JsonObject>(manifest.spec);
  for (const f of filled) setAt(spec, f.path, f.value);
  // ajv's paths name array items by string ("0"), the walk by number: compared as text.
  const key = (path: JsonPath) => path.map(String).join('\u0000');
  const byPath = new Map(filled.map((f) => [key(['spec', ...f.path]), f.ref]));
  return [...validateSpec(kind, spec), ...ruleProblems(kind, spec)].flatMap((p) => {
    const ref = p.severity === 'error' ? byPath.get(key(p.path)) : undefined;
    if (!ref) return [];
    return [
      {
        severity: 'error' as const,
        address: manifest.address,
        code: p.code,
        message: `${p.message} (from ${ref.raw})`,
        location: locatePlaceholder(manifest.source.locate(p.path, p.at), ref.raw, 0, valueFile(manifest, p.path)),
      },
    ];
  });
}

function setAt(root: JsonObject, path: JsonPath, value: JsonValue): void {
  let node: JsonValue = root;
  for (const step of path.slice(0, -1)) node = (node as Record<string | number, JsonValue>)[step];
  (node as Record<string | number, JsonValue>)[path[path.length - 1]] = value;
}

// What `moor import` records as "last applied": the live values of the fields the manifest sets,
// so the first plan compares only what the service returns. A field the service never returns
// (a push dataset's mode or relationships) cannot be compared: the manifest's value stands for
// it (unless the service did return one), or the plan would replace an unchanged resource.
// Hidden secrets stay unknown: the plan sets them; or, adopted by moor discover, they are recorded
// as adopted and never seen (ADOPTED_SECRET), so plan leaves them alone until the manifest gives them.
import { isObject, matchesPattern, valueText, pattern, underPattern, type JsonObject, type JsonPath, type JsonValue } from '../../core/json.js';
import { ADOPTED_SECRET, hashSensitive, isSensitivePath, keepsAdoptedSecret } from '../secrets.js';
import type { DiffRules } from '../../core/kind.js';

export function importedBaseline(desired: JsonObject, live: JsonObject, rules: DiffRules, sensitive: readonly string[], adoptSecrets = false): JsonObject {
  const writeOnly = rules.writeOnly.map(pattern);
  const keys = Object.entries(rules.arrayKeys).map(([p, key]) => ({ pattern: pattern(p), key }));
  const keyFor = (path: JsonPath) => keys.find((k) => matchesPattern(path, k.pattern))?.key;

  const walk = (path: JsonPath, d: JsonValue, l: JsonValue | undefined): JsonValue | undefined => {
    if (writeOnly.some((p) => underPattern(path, p))) {
      if (!isSensitivePath(path, sensitive)) return l ?? d;
      return adoptSecrets && keepsAdoptedSecret(d) ? ADOPTED_SECRET : undefined;
    }
    if (isObject(d) && isObject(l)) {
      const out: JsonObject = {};
      for (const [k, v] of Object.entries(d)) {
        const value = walk([...path, k], v, l[k]);
        if (value !== undefined) out[k] = value;
      }
      return out;
    }
    const key = keyFor(path);
    if (key && Array.isArray(d) && Array.isArray(l)) {
      // Named elements: each live element is matched with the manifest's element of the same name.
      const wanted = new Map(d.flatMap((e, i) => (isObject(e) ? [[valueText(e[key]), { e, i }] as const] : [])));
      return l.map((e) => {
        const match = isObject(e) ? wanted.get(valueText(e[key])) : undefined;
        return match ? (walk([...path, match.i], match.e, e) ?? e) : e;
      });
    }
    return l;
  };

  return hashSensitive((walk([], desired, live) as JsonObject | undefined) ?? {}, sensitive);
}

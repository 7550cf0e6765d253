// The version of a live resource a plan was computed against: a digest of what the manifest can
// manage, so a saved plan can tell whether live changed before it is applied.
import { createHash } from 'node:crypto';
import { isObject, pattern, underPattern, type JsonPath, type JsonValue } from '../../core/json.js';
import { canonicalJson } from '../secrets.js';
import type { KindDefinition, Observed } from '../../core/kind.js';

/** Stands for "nothing live" (a create, a job, a check). */
export const ABSENT = 'absent';

/**
 * 'sha256:<hex>' of the live spec without the fields the service fills in on its own
 * (provisioning state, instance views, timestamps), which move without anyone changing anything.
 */
export function liveVersion(kind: KindDefinition, observed: Observed | undefined): string {
  if (!observed) return ABSENT;
  const server = (kind.category === 'resource' ? kind.diff.serverPopulated : []).map(pattern);
  const stable = without(observed.spec, [], server);
  return (
    'sha256:' +
    createHash('sha256')
      .update(canonicalJson(stable ?? null))
      .digest('hex')
  );
}

function without(value: JsonValue, path: JsonPath, patterns: readonly (readonly string[])[]): JsonValue | undefined {
  if (path.length > 0 && patterns.some((p) => underPattern(path, p))) return undefined;
  if (Array.isArray(value)) return value.map((v, i) => without(v, [...path, i], patterns) ?? null);
  if (!isObject(value)) return value;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = without(v, [...path, k], patterns);
    if (kept !== undefined) out[k] = kept;
  }
  return out;
}

// The RFC 6902 patch from live to desired of a set of field changes: real pointers, never named paths.
import type { FieldChange, PatchOp } from '../plan/types.js';

export function patchOf(fields: readonly FieldChange[]): PatchOp[] {
  return fields.map((f) => {
    const path = f.pointer ?? f.path;
    if (f.op === 'remove') return { op: f.op, path };
    // An unknown value has no honest value to send: marked, with no `value` (an applier must refuse it).
    if (f.unknown) return { op: f.op, path, unknown: true };
    return { op: f.op, path, value: f.after ?? null };
  });
}

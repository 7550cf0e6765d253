// Apply's first write: the state records a plan moves (metadata.movedFrom) go to their new
// addresses before any change is made, so every step then records under the address it plans.
import type { PlannedStep } from '../plan/steps.js';
import type { StateRecorder } from '../state/recorder.js';
import { movedRecords } from '../state/move-record.js';

export async function recordMoves(recorder: StateRecorder, steps: readonly PlannedStep[]): Promise<void> {
  const before = recorder.current().resources;
  let after = before;
  for (const s of steps) {
    const from = s.change.movedFrom;
    if (from !== undefined && Object.hasOwn(after, from) && !Object.hasOwn(after, s.change.address)) after = movedRecords(after, from, s.change.address);
  }
  if (after === before) return;
  const writes: Promise<void>[] = [];
  for (const address of Object.keys(before)) if (!(address in after)) writes.push(recorder.remove(address));
  for (const [address, record] of Object.entries(after)) if (before[address] !== record) writes.push(recorder.put(address, record));
  await Promise.all(writes);
}

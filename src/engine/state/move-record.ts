// Moving a state record to another address (state mv, or a manifest's metadata.movedFrom): the
// record stays whole (id, outputs, a job's runs) and other records' dependsOn follow the move.
import { parseAddress } from '../manifest.js';
import type { ResourceRecord } from './types.js';

/** The records with `from` moved to `to` (the caller checked `from` exists and `to` is free). */
export function movedRecords(resources: Readonly<Record<string, ResourceRecord>>, from: string, to: string): Record<string, ResourceRecord> {
  const name = parseAddress(to)?.name ?? to;
  const out: Record<string, ResourceRecord> = {};
  for (const [address, record] of Object.entries(resources)) {
    const renamed = address === from ? { ...record, name } : record;
    const dependsOn = renamed.dependsOn?.map((d) => (d === from ? to : d));
    out[address === from ? to : address] = dependsOn ? { ...renamed, dependsOn } : renamed;
  }
  return out;
}

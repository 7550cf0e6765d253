// A plan saved with `plan --out`: what was decided, from which state serial, over which inputs.
// It holds no secret values: sensitive fields are already '(sensitive)' in the plan.
import { readFileSync, writeFileSync } from 'node:fs';
import { UserError } from '../diagnostics.js';
import { isObject } from '../json.js';
import type { Plan } from './types.js';

export interface SavedPlan {
  readonly format: 'moor-plan/1';
  readonly serial: number;
  readonly paths: readonly string[];
  readonly targets: readonly string[];
  readonly prune: boolean;
  readonly changes: ReadonlyArray<{ readonly address: string; readonly action: string }>;
  readonly plan: Plan;
}

export function writeSavedPlan(file: string, plan: Plan, inputs: { paths: readonly string[]; targets: readonly string[]; prune: boolean }): void {
  const saved: SavedPlan = {
    format: 'moor-plan/1',
    serial: plan.serial,
    ...inputs,
    changes: plan.changes.map((c) => ({ address: c.address, action: c.action })),
    plan,
  };
  writeFileSync(file, JSON.stringify(saved, null, 2) + '\n', { mode: 0o600 });
}

export function readSavedPlan(file: string): SavedPlan {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(`cannot read saved plan ${file}: ${(err as Error).message}`);
  }
  if (!isObject(doc) || doc.format !== 'moor-plan/1' || typeof doc.serial !== 'number' || !Array.isArray(doc.paths) || !Array.isArray(doc.changes)) {
    throw new UserError(`${file} is not a plan saved by 'moor plan --out'`);
  }
  return doc as unknown as SavedPlan;
}

/** Refuses a plan made from an older state, or one whose decisions no longer hold. */
export function checkSavedPlan(file: string, saved: SavedPlan, currentSerial: number, fresh: Plan): void {
  if (saved.serial !== currentSerial) {
    throw new UserError(`saved plan ${file} is stale: it was made from state serial ${saved.serial}, but state is now at serial ${currentSerial}; run 'moor plan --out' again`);
  }
  const key = (c: { address: string; action: string }) => `${c.action} ${c.address}`;
  const before = saved.changes.filter((c) => c.action !== 'no-op').map(key).sort();
  const now = fresh.changes.filter((c) => c.action !== 'no-op').map(key).sort();
  if (before.join('\n') !== now.join('\n')) {
    throw new UserError(`saved plan ${file} no longer matches the manifests and live resources (it planned: ${before.join(', ') || 'nothing'}; now: ${now.join(', ') || 'nothing'}); run 'moor plan --out' again`);
  }
}

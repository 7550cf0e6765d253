// apply --refresh-only: accepts what drifted into state — last applied and outputs from live —
// and changes nothing live. Afterwards `drift` is quiet, and a plan shows restoring the manifest
// as a manifest change.
import { isObject, type JsonObject, type JsonPath, type JsonValue } from '../../core/json.js';
import { compileRules, type CompiledRules } from '../diff/compiled-rules.js';
import { residue } from '../diff/three-way.js';
import { hashSensitive } from '../secrets.js';
import { sensitivePatterns } from '../placeholder-secrets.js';
import { recordedOutputs } from './records.js';
import type { PlannedStep } from '../plan/steps.js';
import type { Plan } from '../plan/types.js';
import type { StateRecorder } from '../state/recorder.js';
import type { Observed, ResourceKind } from '../../core/kind.js';
import type { ResourceRecord } from '../state/types.js';
import type { StepOutcome } from '../../core/events.js';

/** Records the drifted resources of `plan` (a drift report) from live; forgets the ones gone. */
export async function acceptDrift(plan: Plan, steps: readonly PlannedStep[], recorder: StateRecorder): Promise<StepOutcome[]> {
  const byAddress = new Map(steps.map((s) => [s.change.address, s]));
  const outcomes: StepOutcome[] = [];
  for (const change of plan.changes) {
    const step = byAddress.get(change.address);
    if (step?.kind.category !== 'resource' || !step.record) continue;
    if (step.intent === 'refused') {
      outcomes.push({ address: change.address, action: 'refresh', status: 'failed', error: step.why });
      continue;
    }
    if (!step.observed) {
      await recorder.remove(change.address);
      outcomes.push({ address: change.address, action: 'forget', status: 'done' });
      continue;
    }
    await recorder.put(change.address, refreshedRecord(step, step.kind, step.record, step.observed));
    outcomes.push({ address: change.address, action: 'refresh', status: 'done' });
  }
  await recorder.flush();
  return outcomes;
}

function refreshedRecord(step: PlannedStep, kind: ResourceKind, record: ResourceRecord, observed: Observed): ResourceRecord {
  const accepted = acceptedValue(compileRules(kind.diff), [], step.desired, record.lastApplied, observed.spec);
  const sensitive = sensitivePatterns(kind, step.manifest);
  return {
    ...record,
    id: observed.id,
    lastApplied: hashSensitive(isObject(accepted) ? accepted : {}, sensitive),
    outputs: recordedOutputs(kind, observed, step.desired ?? {}, sensitive),
    updatedAt: new Date().toISOString(),
  };
}

/**
 * Live projected onto the fields moor manages: those the manifest or the last apply set, and
 * those the next whole write would remove (so accepting them quiets their drift). Values the
 * service never returns (secrets) or fills in itself stay as last applied; named array elements
 * are matched by key; a field live no longer has is dropped.
 */
function acceptedValue(
  rules: CompiledRules,
  path: JsonPath,
  desired: JsonValue | undefined,
  last: JsonValue | undefined,
  live: JsonValue | undefined,
): JsonValue | undefined {
  if (path.length > 0 && (rules.isWriteOnly(path) || rules.isServer(path))) return last;
  if (isObject(live) && (isObject(desired) || isObject(last))) {
    const out: JsonObject = {};
    const removable = Object.keys(live).filter((k) => rules.isSentWhole([...path, k]) && residue(rules, [...path, k], live[k]) !== undefined);
    const keys = new Set([...Object.keys(isObject(desired) ? desired : {}), ...Object.keys(isObject(last) ? last : {}), ...removable]);
    for (const k of keys) {
      const v = acceptedValue(rules, [...path, k], isObject(desired) ? desired[k] : undefined, isObject(last) ? last[k] : undefined, live[k]);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  const key = rules.keyOf(path);
  if (key && Array.isArray(live)) {
    const find = (list: JsonValue | undefined, k: JsonValue | undefined) => (Array.isArray(list) ? list.find((e) => isObject(e) && e[key] === k) : undefined);
    return live.map((e, i) => {
      if (!isObject(e)) return e;
      return acceptedValue(rules, [...path, i], find(desired, e[key]), find(last, e[key]), e) ?? e;
    });
  }
  return live;
}

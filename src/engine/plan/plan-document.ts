// One JSON plan document (moor-plan/1) for `plan --output json`, `plan --out` and `moor show`:
// the rendered plan plus the contract apply --plan holds it to — each change's desired body,
// the live version it was computed against, the manifests' digest and the inputs of the plan.
import { isObject, valueText, type JsonObject, type JsonValue } from '../../core/json.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import { hashSensitive, isHashed, maskSensitive, SENSITIVE_MASK } from '../secrets.js';
import { planJson } from '../render/plan-json.js';
import type { KindContext } from '../../core/kind.js';
import type { Manifest } from '../manifest.js';
import { summarize, type Plan, type PlannedChange } from './types.js';
import type { PlannedStep } from './steps.js';
import { liveVersion } from './live-version.js';
import { sensitivePatterns } from '../placeholder-secrets.js';
import { manifestsDigest } from './manifests-digest.js';
import type { PlanShape } from './plan-shape.js';

/** What the plan was asked for (its paths, its stack and its shape); apply --plan plans again from exactly these. */
export interface PlanInputs extends PlanShape {
  readonly paths: readonly string[];
  /** The stack planned (recorded only with one): apply --plan applies to that stack only. */
  readonly stack?: string;
}

/** What a plan was made from: its decisions, the steps behind them and the manifests. */
export interface PlanMaterial {
  readonly plan: Plan;
  readonly steps: readonly PlannedStep[];
  readonly manifests: readonly Manifest[];
}

/**
 * The live version of every step, reading live where planning did not (a pruned delete), so a
 * saved plan can refuse a resource that changed before it is applied.
 */
export async function liveVersions(material: Pick<PlanMaterial, 'steps'>, ctx: KindContext): Promise<Map<string, string>> {
  const versions = new Map<string, string>();
  await Promise.all(
    material.steps.map(async (s) => {
      let observed = s.observed;
      if (!observed && !s.manifest && s.record?.id && s.kind.category === 'resource') {
        observed = await s.kind.resource.read(ctx, { name: s.record.name, spec: s.record.lastApplied, recordedId: s.record.id });
      }
      versions.set(s.change.address, liveVersion(s.kind, observed));
    }),
  );
  return versions;
}

/**
 * The document. `secrets: 'hash'` (a saved plan) keeps each secret as a salted hash, so apply
 * can check the secret it resolves is the one reviewed; 'mask' (stdout) prints '(sensitive)'.
 */
export function planDocument(material: PlanMaterial, versions: ReadonlyMap<string, string>, inputs: PlanInputs, secrets: 'hash' | 'mask'): JsonObject {
  const rendered = planJson(material.plan);
  const steps = new Map(material.steps.map((s) => [s.change.address, s]));
  const changes = (rendered.changes as JsonObject[]).map((c): JsonObject => {
    const step = steps.get(valueText(c.address));
    const body =
      step?.desired && step.kind.category !== 'check'
        ? secrets === 'hash'
          ? hashSensitive(step.desired, sensitivePatterns(step.kind, step.manifest))
          : maskSensitive(step.desired, sensitivePatterns(step.kind, step.manifest))
        : undefined;
    const version = versions.get(valueText(c.address));
    return { ...c, ...(body ? { desired: body } : {}), ...(version ? { liveVersion: version } : {}) };
  });
  return {
    format: rendered.format,
    ...(inputs.stack !== undefined ? { stack: inputs.stack } : {}),
    serial: rendered.serial,
    manifestsDigest: manifestsDigest(material.manifests),
    inputs: inputsJson(inputs),
    changes,
    summary: rendered.summary,
    diagnostics: rendered.diagnostics,
  };
}

function inputsJson({ allowDestructive, ...inputs }: PlanInputs): JsonObject {
  return {
    ...inputs,
    paths: [...inputs.paths],
    targets: [...inputs.targets],
    replace: [...inputs.replace],
    ...(allowDestructive ? { allowDestructive: [...allowDestructive] } : {}),
  };
}

/** The document with every salted hash shown as '(sensitive)' (what `moor show` prints). */
export function maskHashes(value: JsonValue): JsonValue {
  if (isHashed(value)) return SENSITIVE_MASK;
  if (Array.isArray(value)) return value.map(maskHashes);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskHashes(v)]));
  return value;
}

/** The Plan a document describes, for the text and markdown renderers. */
export function planOfDocument(doc: JsonObject): Plan {
  const changes = (Array.isArray(doc.changes) ? doc.changes : []).filter(isObject).map((c) => {
    const { desired: _d, liveVersion: _v, ...rest } = c;
    return { fields: [], patch: [], drift: false, destructive: false, ...rest } as unknown as PlannedChange;
  });
  const diagnostics = (Array.isArray(doc.diagnostics) ? doc.diagnostics : []).filter(isObject).map(diagnosticOf);
  return {
    format: 'moor-plan/1',
    serial: typeof doc.serial === 'number' ? doc.serial : 0,
    changes,
    summary: summarize(changes),
    diagnostics,
  };
}

function diagnosticOf(d: JsonObject): Diagnostic {
  const location =
    typeof d.file === 'string' && typeof d.line === 'number' && typeof d.col === 'number' ? { file: d.file, line: d.line, col: d.col } : undefined;
  return {
    severity: d.severity === 'warning' ? 'warning' : 'error',
    message: valueText(d.message ?? ''),
    ...(location ? { location } : {}),
    ...(typeof d.address === 'string' ? { address: d.address } : {}),
    ...(typeof d.code === 'string' ? { code: d.code } : {}),
    ...(typeof d.policy === 'string' ? { policy: d.policy } : {}),
  };
}

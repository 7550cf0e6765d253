// Does what the plan decided: walks the dependency graph, starts ready steps (longest chain
// first), records every finished change in state at once, skips the dependents of a failure.
// Only requests in flight count against --parallelism: the request scheduler of the providers
// enforces it, so a step waiting on its operation holds no request slot. Steps started but not
// finished are bounded too (stepsInFlight), so apply's memory follows the work in flight.
import { isUserFailure, UserError } from '../../core/diagnostics.js';
import { fieldOf, valueText, type JsonObject } from '../../core/json.js';
import type { Manifest } from '../manifest.js';
import { buildGraph, type DependencyGraph } from '../graph.js';
import { diffResource } from '../diff/three-way.js';
import { deepEqual } from '../diff/equal.js';
import { keepIgnoredLive } from '../diff/ignore-paths.js';
import { compileRules } from '../diff/compiled-rules.js';
import { resolveSpec, type ResolveContext } from '../resolve.js';
import { registerResolvedSecrets } from '../secret-registration.js';
import {
  unknownIntent,
  type BlockingStep,
  type CreateStep,
  type DeleteStep,
  type NoopStep,
  type PlannedStep,
  type ReplaceStep,
  type RunStep,
  type SettleStep,
  type UpdateStep,
} from '../plan/steps.js';
import type { StateRecorder } from '../state/recorder.js';
import type { JobRecord, KindContext, Observed } from '../../core/kind.js';
import type { ResourceRecord } from '../state/types.js';
import type { EventSink, StepOutcome } from '../../core/events.js';
import { isInterruption } from '../../core/interrupted.js';
import { appliedRecord, dependenciesChanged, pendingRecord, recordedDependencies } from './records.js';
import { runDeletesInOrder } from './delete-order.js';
import { criticalPathWeights } from './critical-path.js';
import { ExclusiveRuns } from './exclusive-runs.js';
import { walkGraph } from './graph-walk.js';
import { knownEntry } from '../../core/known-key.js';
import { TurnPacer } from './turn-pacer.js';
import { markStarted, newRequestContext } from '../../core/request-context.js';
import { holdsSecretsInClear, sensitivePatterns } from '../placeholder-secrets.js';

export interface ApplyOptions {
  readonly steps: readonly PlannedStep[];
  readonly manifests: readonly Manifest[];
  readonly recorder: StateRecorder;
  readonly ctx: KindContext;
  readonly resolve: Omit<ResolveContext, 'outputs'>;
  /** Requests in flight per service; the providers' request scheduler enforces it, not the applier. */
  readonly parallelism: number;
  /** Where step_started, progress and step_finished go (the run's one event stream). */
  readonly events?: EventSink;
  /** Once aborted, no new step starts; running ones finish and are recorded. */
  readonly signal?: AbortSignal;
  /** The manifests' dependency graph as planning built it; built here when not given. */
  readonly graph?: DependencyGraph;
  /** Jobs that must not overlap (one per apply; applyPlan makes it when not given). */
  readonly exclusive?: ExclusiveRuns;
}

/**
 * Steps running at once per request slot. A step spends most of its time waiting on its operation
 * (provisioning), holding no slot, so many more steps than slots keep the slots busy; but a step
 * started too early only waits in the request queue with its body and frame.
 */
const STEPS_PER_REQUEST_SLOT = 100;

/** How many steps apply runs at once for `parallelism` requests in flight per service. */
export function stepsInFlight(parallelism: number): number {
  return Math.max(1, parallelism) * STEPS_PER_REQUEST_SLOT;
}

export async function applyPlan(given: ApplyOptions): Promise<StepOutcome[]> {
  const options: ApplyOptions = { ...given, exclusive: given.exclusive ?? new ExclusiveRuns() };
  const graph = options.graph ?? buildGraph(options.manifests);
  const weights = criticalPathWeights(graph, options.steps);
  const priority = (address: string) => weights.get(address) ?? 0;
  const byAddress = new Map(options.steps.map((s) => [s.change.address, s]));
  const bugs: unknown[] = [];
  const report = (o: StepOutcome): StepOutcome => {
    options.events?.({ type: 'step_finished', outcome: o });
    return o;
  };
  // The first requests go out while the other ready steps are still being prepared.
  const pacer = new TurnPacer(Math.max(1, options.parallelism));
  const run = (step: PlannedStep) => runStep(step, options, report, priority(step.change.address), bugs, pacer);
  const limit = stepsInFlight(options.parallelism);

  const forward = options.steps.filter((s) => s.change.action !== 'delete');
  const outcomes = await walkGraph({
    addresses: forward.map((s) => s.change.address),
    waitsOn: (address) => graph.dependenciesOf(address),
    priority,
    limit,
    run: (address) => run(knownEntry(byAddress, address, 'step')),
    blocks: (o) => o.status !== 'done' || o.blocks !== undefined,
    skip: (address, blocker) =>
      report({ address, action: knownEntry(byAddress, address, 'step').change.action, status: 'skipped', rootCause: blocker.rootCause ?? blocker.address }),
  });
  // Deletes of what left the manifests go last: whatever depended on them is updated first,
  // and among themselves dependents go before what they depend on.
  const deletes = options.steps.filter((s) => s.change.action === 'delete');
  outcomes.push(...(await runDeletesInOrder(deletes, run, report, limit)));
  await options.recorder.flush();
  // A bug fails its step like any failure (dependents skip, the rest is recorded), then surfaces with its stack.
  if (bugs.length > 0) throw bugs[0];
  return outcomes;
}

/**
 * Runs one ready step. It starts when its first request is sent (the scheduler sends the most
 * urgent first); once interrupted, a step that has sent nothing sends nothing and is skipped.
 */
async function runStep(
  step: PlannedStep,
  options: ApplyOptions,
  reportOutcome: (o: StepOutcome) => StepOutcome,
  priority: number,
  bugs: unknown[],
  pacer: TurnPacer,
): Promise<StepOutcome> {
  const { address, action } = step.change;
  // A no-op that follows an earlier write ends as that write does: its outcome says so (the reports count it).
  const report =
    action === 'no-op' && step.change.inProgress !== undefined ? (o: StepOutcome) => reportOutcome({ ...o, followsEarlierWrite: true }) : reportOutcome;
  switch (step.intent) {
    case 'unresolved':
      return report({ address, action, status: 'failed', error: step.why });
    case 'refused':
      return report({ address, action, status: 'failed', error: step.why, refused: true });
    case 'no-op':
      await recordNoop(step, options);
      return report({ address, action, status: 'done' });
    case 'blocks':
      await recordNoop(step, options);
      return report({ address, action, status: 'done', blocks: step.why });
    case 'create':
    case 'update':
    case 'replace':
    case 'delete':
    case 'run':
    case 'settle':
      return carryOut(step, options, report, priority, bugs, pacer);
    default:
      return unknownIntent(step);
  }
}

/** The steps that send requests. */
type ActiveStep = CreateStep | UpdateStep | ReplaceStep | DeleteStep | RunStep | SettleStep;

async function carryOut(
  step: ActiveStep,
  options: ApplyOptions,
  report: (o: StepOutcome) => StepOutcome,
  priority: number,
  bugs: unknown[],
  pacer: TurnPacer,
): Promise<StepOutcome> {
  const { address, action } = step.change;
  const durable: Promise<void>[] = [];
  const interrupted = () => report({ address, action, status: 'skipped', rootCause: 'interrupted' });
  const turn = pacer.turn(priority);
  if (turn) await turn;
  if (options.signal?.aborted) return interrupted();
  const requests = newRequestContext(priority, options.signal, () => options.events?.({ type: 'step_started', address, action }), address);
  try {
    const providers = options.ctx.providers.forRequests(requests);
    const ctx: KindContext = {
      ...options.ctx,
      providers,
      requests,
      signal: options.signal,
      log: (message) => options.events?.({ type: 'progress', address, message }),
    };
    await execute(step, options, ctx, (p) => durable.push(p));
    markStarted(requests); // a step that sent nothing (or ran without a scheduler) still starts before it ends
    await Promise.all(durable);
    return report({ address, action, status: 'done' });
  } catch (err) {
    await Promise.allSettled(durable);
    if (!requests.started && options.signal?.aborted) return interrupted();
    markStarted(requests);
    const error = err instanceof Error ? err.message : String(err);
    // A wait Ctrl-C cut short: what was sent goes on at the service; the next plan reads where it got to.
    if (options.signal?.aborted && isInterruption(err))
      return report({ address, action, status: 'interrupted', error, ...(requests.sentChange === false ? { sentNoChange: true } : {}) });
    if (!isUserFailure(err)) bugs.push(err);
    return report({ address, action, status: 'failed', error });
  }
}

/** Carries out a step; `defer` takes the final state write, which the caller awaits before reporting the step done. */
async function execute(step: ActiveStep, options: ApplyOptions, ctx: KindContext, defer: (write: Promise<void>) => void): Promise<void> {
  const { address } = step.change;
  switch (step.intent) {
    case 'delete':
      if (step.record.id) await step.kind.resource.delete(ctx, step.record.id, step.record.lastApplied);
      await options.recorder.remove(address);
      return;
    case 'settle':
      return awaitSettled(step, options, ctx, defer);
    case 'run':
      return runJob(step, resolveNow(step, options), options, ctx);
    case 'create':
    case 'update':
    case 'replace': {
      const desired = keepingIgnored(step, resolveNow(step, options));
      const observed = await writeResource(step, desired, options, ctx);
      if (observed) defer(options.recorder.put(address, appliedRecord(step.manifest, step.kind, desired, observed)));
      return;
    }
    default:
      return unknownIntent(step);
  }
}

/** Follows the earlier write the service still carries out to its end through the kind, then records it. */
async function awaitSettled(step: SettleStep, options: ApplyOptions, ctx: KindContext, defer: (write: Promise<void>) => void): Promise<void> {
  const { manifest, observed, desired, kind } = step;
  if (!kind.resource.awaitSettled) return;
  const final = await kind.resource.awaitSettled(ctx, observed);
  defer(options.recorder.put(step.change.address, appliedRecord(manifest, kind, desired, final)));
}

/** Create, replace or update; undefined when an update turns out to change nothing. */
async function writeResource(
  step: CreateStep | UpdateStep | ReplaceStep,
  desired: JsonObject,
  options: ApplyOptions,
  ctx: KindContext,
): Promise<Observed | undefined> {
  const { recorder } = options;
  const { manifest, kind } = step;
  const { address } = step.change;
  const handler = kind.resource;
  // The intent goes to state first; where a repeated write could duplicate, it must be durable before sending.
  const recordIntent = async (intent: 'create' | 'update', previous: ResourceRecord | undefined) => {
    const written = recorder.put(address, pendingRecord(manifest, kind, desired, previous, intent));
    if (handler.idempotentWrites)
      written.catch(() => undefined); // a failed write resurfaces in the next put
    else
      await written.catch((err: unknown) => {
        throw notSent(intent, err);
      });
  };
  switch (step.intent) {
    case 'update': {
      const changed = deepEqual(desired, step.desired) ? step.changedPaths : recomputeChanges(step, desired);
      if (changed.length === 0) return undefined;
      await recordIntent('update', step.record);
      return handler.update(ctx, manifest.name, desired, step.observed, changed);
    }
    case 'replace':
      await recorder.put(address, pendingRecord(manifest, kind, desired, step.record, 'replace'));
      await handler.delete(ctx, step.observed.id, step.record?.lastApplied ?? desired);
      // After the delete the old record describes nothing live any more.
      await recordIntent('create', undefined);
      return handler.create(ctx, manifest.name, desired);
    case 'create':
      await recordIntent('create', step.record);
      return handler.create(ctx, manifest.name, desired);
    default:
      return unknownIntent(step);
  }
}

/** The failure of a step whose intent state could not record: its request stayed unsent, and the message says so. */
function notSent(intent: 'create' | 'update', err: unknown): unknown {
  if (!isUserFailure(err)) return err;
  const why = err instanceof Error ? err.message : String(err);
  return new UserError(`the ${intent} was not sent, because state could not record it first: ${why}`, [], { cause: err });
}

/** Resolves again at apply time: `${ref:}` values of resources applied in this run are known now. */
function resolveNow(step: CreateStep | UpdateStep | ReplaceStep | RunStep, options: ApplyOptions): JsonObject {
  const outputs = (a: string) => options.recorder.record(a)?.outputs;
  const resolved = resolveSpec(step.manifest, { ...options.resolve, outputs }, step.kind.specSchema);
  registerResolvedSecrets(options.resolve.secrets, sensitivePatterns(step.kind, step.manifest), resolved.spec);
  const errors = resolved.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new UserError(errors.map((d) => d.message).join('; '));
  if (resolved.pending) throw new UserError('a ${ref:} target has no outputs yet');
  return resolved.spec;
}

/** What a resolved spec sends: ignored fields as live holds them (the plan compared them so). */
function keepingIgnored(step: CreateStep | UpdateStep | ReplaceStep, resolved: JsonObject): JsonObject {
  if (!step.ignore || step.intent === 'create') return resolved;
  return keepIgnoredLive(resolved, step.observed.spec, step.ignore, compileRules(step.kind.diff)).spec;
}

function recomputeChanges(step: UpdateStep, desired: JsonObject) {
  const { kind } = step;
  return diffResource({
    desired,
    last: step.record?.lastApplied,
    live: step.observed.spec,
    rules: kind.diff,
    sensitive: sensitivePatterns(kind, step.manifest),
  }).map((f) => f.desiredPath);
}

async function runJob(step: RunStep, desired: JsonObject, options: ApplyOptions, ctx: KindContext): Promise<void> {
  const { manifest, kind } = step;
  const previousRuns = (step.record?.runs ?? []) as JobRecord[];
  const revision = kind.job.revision(desired);
  const last = previousRuns.at(-1);
  const resume = last?.revision === revision && last.status === 'started' ? last : undefined;
  const earlier = resume ? previousRuns.slice(0, -1) : previousRuns;
  const checkpoint = (run: JobRecord) =>
    options.recorder.put(step.change.address, {
      kind: manifest.kind,
      name: manifest.name,
      lastApplied: { revision },
      protect: manifest.protect || undefined,
      dependsOn: recordedDependencies(manifest),
      runs: [...earlier.slice(-9), run],
      updatedAt: new Date().toISOString(),
    });
  const exclusive = options.exclusive ?? new ExclusiveRuns();
  const final = await exclusive.run(kind.job.exclusive?.(desired) ?? [], () => kind.job.run(ctx, desired, resume, checkpoint));
  await checkpoint(final);
  if (final.status === 'failed') {
    const why = fieldOf(final, 'message') ?? fieldOf(final, 'error') ?? 'the job failed';
    throw new UserError(`${step.change.address}: ${valueText(why)}`);
  }
}

/** A no-op still brings state up to date: adopt a resource found live without a record, keep protect and dependencies. */
async function recordNoop(step: NoopStep | BlockingStep, options: ApplyOptions): Promise<void> {
  const { manifest, observed, record, desired } = step;
  if (step.kind.category === 'job') {
    if (!record) return;
    // A job's record outlives its manifest (prune keeps run history): it must say whether it is protected.
    const stale = Boolean(record.protect) !== manifest.protect || dependenciesChanged(record, manifest);
    if (stale)
      await options.recorder.put(step.change.address, {
        ...record,
        protect: manifest.protect || undefined,
        dependsOn: recordedDependencies(manifest),
        updatedAt: new Date().toISOString(),
      });
    return;
  }
  if (!observed || step.kind.category !== 'resource') return;
  const stale =
    !record ||
    record.pending ||
    record.id !== observed.id ||
    Boolean(record.protect) !== manifest.protect ||
    dependenciesChanged(record, manifest) ||
    holdsSecretsInClear(record.lastApplied, sensitivePatterns(step.kind, manifest));
  if (stale) await options.recorder.put(step.change.address, appliedRecord(manifest, step.kind, desired, observed));
}

// The plan/apply/drift workflows over a session: load -> validate -> plan -> (apply).
import { hasErrors, UserError, type Diagnostic } from '../core/diagnostics.js';
import type { Manifest } from './manifest.js';
import { loadRunManifests } from './run-manifests.js';
import { makePlan, type PlanResult } from './plan/planner.js';
import type { PlanShape } from './plan/plan-shape.js';
import { beginReads } from './plan/early-reads.js';
import { forceReplace } from './plan/force-replace.js';
import { summarize, type Plan, type PlannedChange, type PlanSummary } from './plan/types.js';
import { blockingErrors } from './plan/unknown-outcome.js';
import { applyPlan } from './apply/applier.js';
import { acceptDrift } from './apply/accept-drift.js';
import { recordMoves } from './apply/record-moves.js';
import type { StepOutcome } from '../core/events.js';
import { StateRecorder } from './state/recorder.js';
import type { StateDocument } from './state/types.js';
import type { Session } from './session.js';
import type { KindContext } from '../core/kind.js';
import { NOT_IN_STATE } from './render/summary-line.js';
import { UNTRACKED_LIVE } from './plan/untracked-live.js';
import { FOREIGN_STATE } from './plan/foreign-state.js';
import { PROTECTED_RUN } from './plan/protected-change.js';
import { recordRun } from './history/record-run.js';
import { historyLimit } from './history/history-store.js';
import { isGuardFinding, type GuardContext } from './guard.js';
import { reviewPlan } from './plan/guard-review.js';
import { otherStacksOwners, ownedElsewhereDiagnostics } from './plan/owned-elsewhere.js';

/** What to plan: the paths, the plan's shape (declared once, plan/plan-shape.ts; unset fields off), and where. */
export interface PlanRequest extends Partial<PlanShape> {
  readonly paths: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface PreparedPlan extends PlanResult {
  readonly manifests: readonly Manifest[];
  /** The state the plan was made from (apply holds the lock, so it is still current then). */
  readonly state: StateDocument;
}

/** Loads, validates (refusing invalid manifests with every diagnostic) and plans. */
export async function preparePlan(session: Session, request: PlanRequest): Promise<PreparedPlan> {
  const stack = session.config.stack?.name;
  const context: GuardContext = stack === undefined ? {} : { stack };
  const guarding = session.guard ? { guard: session.guard, context } : undefined;
  // Each manifest valid on its own starts its listing as it loads (a read, under the lock, from the
  // manifest alone): the requests overlap start-up. State is read once the manifests are valid, so
  // parsing it holds back no request while the service's tokens would be spent, and it answers each
  // listed manifest from where state records it. --target reads only what it selects.
  let readState!: (state: Promise<StateDocument>) => void;
  const reading = new Promise<StateDocument>((read) => {
    readState = read;
  });
  const resolve = { env: request.env, files: session.config.files, secrets: session.masker };
  const early = request.targets?.length ? undefined : beginReads({ state: reading, kinds: session.kinds, ctx: kindContext(session), resolve });
  const validated = await loadRunManifests(session.config, request.paths, session.kinds, request.cwd, guarding, early?.add);
  const { manifests, graph, guard } = validated;
  // The guard's findings on the manifests as written come again, on each planned change, below.
  const diagnostics = validated.diagnostics.filter((d) => !isGuardFinding(d));
  if (hasErrors(diagnostics)) {
    // Invalid manifests are told first, whatever state holds.
    throw new UserError(`the manifests have ${diagnostics.filter((d) => d.severity === 'error').length} error(s); nothing was planned`, diagnostics);
  }
  readState(session.backend.read());
  const state = await reading;
  const made = await makePlan({
    begun: await early?.begun(),
    manifests,
    graph,
    kinds: session.kinds,
    state,
    ctx: kindContext(session),
    events: session.events,
    resolve,
    ...plannerShape(request),
    parallelism: session.parallelism,
    diagnostics,
    ignore: session.config.ignore,
  });
  // A live resource another stack's state records is that stack's: planning it here is refused.
  const others = await otherStacksOwners(session.config, request.cwd, request.env, session.stateGiven, session.backend);
  const owned = [...others.diagnostics, ...(stack === undefined ? [] : ownedElsewhereDiagnostics(made.steps, others.owners, stack))];
  const replaced = forceReplace(
    owned.length === 0 ? made : { ...made, plan: { ...made.plan, diagnostics: [...made.plan.diagnostics, ...owned] } },
    request.replace ?? [],
  );
  // --replace decides again: its planned event supersedes the planner's for that address.
  const decided = new Map(made.plan.changes.map((c) => [c.address, c.action]));
  for (const c of replaced.plan.changes) if (decided.get(c.address) !== c.action) session.events({ type: 'planned', address: c.address, action: c.action });
  // Accepting drift into state changes nothing live: there is no change for a policy to refuse.
  const result = guard && !request.refreshOnly ? await reviewPlan(replaced, guard, context) : replaced;
  return { ...result, plan: request.refreshOnly ? driftOf(result.plan) : result.plan, manifests, state };
}

/** The plan's shape as the planner takes it (refreshOnly is the workflow's: the planner plans everything, the drift is kept after). */
function plannerShape({
  targets,
  prune,
  allowMassDelete,
  allowUntracked,
  replace,
  allowDestructive,
}: Partial<PlanShape>): Omit<Partial<PlanShape>, 'refreshOnly'> {
  return { targets, prune, allowMassDelete, allowUntracked, replace, allowDestructive };
}

export function kindContext(session: Session): KindContext {
  return { providers: session.providers, log: () => undefined, pollIntervalMs: session.pollIntervalMs };
}

export interface ApplyRequest {
  readonly prepared: PreparedPlan;
  readonly signal?: AbortSignal;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** For the run's history entry: what applied (`apply`, `apply --plan`, `watch`) and the manifest paths (their git commit). */
  readonly run: RunLabel;
}

export interface RunLabel {
  readonly command: string;
  readonly paths: readonly string[];
  readonly stack?: string;
}

/** Applies a prepared plan; the caller holds the state lock. */
export async function applyPrepared(session: Session, request: ApplyRequest): Promise<StepOutcome[]> {
  const { prepared } = request;
  const blocking = blockingErrors(prepared.plan.diagnostics);
  if (blocking.length > 0) throw new UserError('the plan has errors; nothing was applied', blocking);
  const recorder = new StateRecorder(session.backend, prepared.state);
  await recordMoves(recorder, prepared.steps);
  const startedAt = new Date();
  const outcomes = await applyPlan({
    steps: prepared.steps,
    manifests: prepared.manifests,
    recorder,
    ctx: kindContext(session),
    resolve: { env: request.env, files: session.config.files, secrets: session.masker },
    // The session's scheduler was made with it (--parallelism included): one request never changes it for another.
    parallelism: session.parallelism,
    events: session.events,
    signal: request.signal,
    graph: prepared.graph,
  });
  await recordRun(session.backend, historyOf(session, request), startedAt, outcomes, session.events);
  return outcomes;
}

/** apply --refresh-only over a prepared plan: what drifted is recorded from live; the caller holds the lock. */
export async function refreshPrepared(session: Session, request: Omit<ApplyRequest, 'signal'>): Promise<StepOutcome[]> {
  const recorder = new StateRecorder(session.backend, request.prepared.state);
  const startedAt = new Date();
  const outcomes = await acceptDrift(request.prepared.plan, request.prepared.steps, recorder);
  await recordRun(session.backend, historyOf(session, request), startedAt, outcomes, session.events);
  return outcomes;
}

function historyOf(session: Session, request: Pick<ApplyRequest, 'run' | 'cwd' | 'env'>) {
  const stack = request.run.stack ?? session.config.stack?.name;
  return {
    ...request.run,
    ...(stack ? { stack } : {}),
    cwd: request.cwd,
    env: request.env,
    limit: historyLimit(session.config.history),
    masker: session.masker,
  };
}

/**
 * `moor drift`'s report: the drift of the plan, and an error when state holds no record at all
 * while there are manifests to compare (a missing or wrong --state): drift that cannot compare
 * anything must not look like "no drift".
 */
export function driftReport(prepared: Pick<PreparedPlan, 'plan' | 'state' | 'manifests'>, stateLocation: string): Plan {
  const drift = driftOf(prepared.plan);
  const compared = prepared.plan.changes.filter((c) => c.action !== 'delete' && !c.check);
  if (Object.keys(prepared.state.resources).length > 0 || compared.length === 0) return drift;
  const error: Diagnostic = {
    severity: 'error',
    code: 'drift.no-state',
    message: `state ${stateLocation} holds no resources (missing or empty): drift compares live resources with the last apply and has nothing to compare ${compared.length === 1 ? 'the manifest' : `the ${compared.length} manifests`} with; point --state (or state: in moor.config.yaml) at the state apply wrote`,
  };
  return { ...drift, diagnostics: [error, ...drift.diagnostics] };
}

/** What refuses a plan but is no finding of drift: preflight (quota), lost-state refusals (drift says unverified), protect's run refusal, another environment's state (drift compares live with that very state). */
const PLAN_ONLY: ReadonlySet<string> = new Set(['preflight', UNTRACKED_LIVE, PROTECTED_RUN, FOREIGN_STATE]);

/** The drift report: only what moved in live resources since the last apply. */
export function driftOf(plan: Plan): Plan {
  const changes: PlannedChange[] = [];
  for (const c of plan.changes) {
    if (!c.drift) continue;
    const fields = c.fields.filter((f) => f.cause === 'drift');
    const patch = c.patch.filter((p) => fields.some((f) => (f.pointer ?? f.path) === p.path));
    changes.push({ ...c, fields, patch });
  }
  // Plan-only findings and policies judge what apply would send, not what moved live.
  const kept = plan.diagnostics.filter((d) => !PLAN_ONLY.has(d.code ?? '') && !isGuardFinding(d));
  return { ...plan, changes, summary: driftSummary(plan, changes), diagnostics: [...kept, ...neverApplied(plan)] };
}

/** The drifted changes by action, and as noop (as a plan counts its no-ops) what did not drift; a create never applied is neither. */
function driftSummary(plan: Plan, drifted: readonly PlannedChange[]): PlanSummary {
  const counts = summarize(drifted);
  const undrifted = plan.changes.filter((c) => !c.drift && c.action !== 'create' && !c.untracked).length;
  return { ...counts, noop: counts.noop + undrifted };
}

/**
 * A resource state has no record of, so drift cannot see it move: never applied (a create), or
 * found live with its state lost (unverified: what it differs by may be drift or a manifest change).
 */
function neverApplied(plan: Plan): Diagnostic[] {
  const missing = plan.changes.filter((c) => (c.action === 'create' && !c.drift) || c.untracked);
  return missing.map((c) => ({
    severity: 'warning',
    address: c.address,
    code: NOT_IN_STATE,
    message: c.untracked
      ? 'exists live but is not in state (its state was lost, or --state names another): unverified, drift has nothing to compare it with; moor import adopts it'
      : 'is in the manifests but not in state (never applied, or its state was lost): drift has nothing to compare it with; moor plan shows it as a create',
  }));
}

// Decides what to do: reads live state, compares it with manifests and state, evaluates checks.
// Deciding is kept apart from doing (apply); nothing here changes anything.
import pLimit from 'p-limit';
import { isUserFailure, type Diagnostic } from '../../core/diagnostics.js';
import { diagnosed, mergeDiagnosed, type Diagnosed } from '../../core/diagnosed.js';
import { locateAtManifests } from './diagnostic-locations.js';
import { fieldOf, getAt, valueText, type JsonObject, type JsonValue } from '../../core/json.js';
import { ADOPTED_SECRET, keepsAdoptedSecret, mapSensitive } from '../secrets.js';
import type { Manifest } from '../manifest.js';
import { buildGraph, type DependencyGraph } from '../graph.js';
import { diffResource } from '../diff/three-way.js';
import { createFields, resentFields, shownSpec } from '../diff/after-values.js';
import { patchOf } from '../diff/patch.js';
import type { ResolveContext, ResolvedSpec } from '../resolve.js';
import { registerResolvedSecrets } from '../secret-registration.js';
import { sensitivePatterns } from '../placeholder-secrets.js';
import { validateResolved } from '../validate/validate-resolved.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { CheckKind, CheckResult, JobKind, JobRecord, KindContext, KindDefinition, ResourceKind } from '../../core/kind.js';
import type { ResourceRecord, StateDocument } from '../state/types.js';
import { summarize, type Plan, type PlannedChange } from './types.js';
import type { PlannedStep } from './steps.js';
import { selectTargets } from './targets.js';
import { massDeleteRefusal } from './prune-guard.js';
import { inDeleteOrder } from './delete-listing.js';
import { isUnknown, noteBlockedDependents, recheckUnknown, resolvedAsFailed, unknownOutcomeDiagnostic, unresolvedMessage } from './unknown-outcome.js';
import { prefetchReads, readTarget, type Prefetched, type PrefetchRun } from './prefetch.js';
import type { BegunReads } from './early-reads.js';
import { specResolver } from './spec-resolver.js';
import { protectedChangeError } from './protected-change.js';
import { namesakeDiagnostics, untrackedLiveDiagnostics } from './untracked-live.js';
import { foreignStateDiagnostics } from './foreign-state.js';
import { plannedMoves } from './moves.js';
import { settlingStep } from './settling.js';
import { reasonFields, type Reason } from './reasons.js';
import type { EventSink } from '../../core/events.js';
import { timeSlices } from '../../core/time-slices.js';
import { ignorePathsOf, type IgnoreRule } from '../config-ignore.js';
import { keepIgnoredLive, isUnderPlace, type IgnorePath } from '../diff/ignore-paths.js';
import { compileRules } from '../diff/compiled-rules.js';
import type { PlanShape } from './plan-shape.js';

/** What to plan from, and the plan's shape (plan-shape.ts: targets, prune, replace, the confirmations; refresh-only is the workflow's). */
export interface PlanOptions extends Omit<Partial<PlanShape>, 'refreshOnly'> {
  readonly manifests: readonly Manifest[];
  /** The kinds the manifests and state records name. */
  readonly kinds: KindCatalog;
  readonly state: StateDocument;
  readonly ctx: KindContext;
  /** Where a `planned` event per change goes as it is decided, and a kind's progress lines (KindContext.log) as progress of its address. */
  readonly events?: EventSink;
  readonly resolve: Omit<ResolveContext, 'outputs'>;
  readonly parallelism: number;
  /** Diagnostics gathered before planning (e.g. validation warnings) to carry into the plan. */
  readonly diagnostics?: readonly Diagnostic[];
  /** The manifests' dependency graph when validation built it already. */
  readonly graph?: DependencyGraph;
  /** Reads begun while the manifests loaded (early-reads.ts), from this very state. */
  readonly begun?: BegunReads;
  /** The config's `ignore:` rules (a manifest's own metadata.ignoreChanges hold besides). */
  readonly ignore?: readonly IgnoreRule[];
}

export interface PlanResult {
  readonly plan: Plan;
  readonly steps: readonly PlannedStep[];
  /** The manifests' dependency graph, for apply to walk (one graph per run). */
  readonly graph: DependencyGraph;
}

export async function makePlan(given: PlanOptions): Promise<PlanResult> {
  // metadata.movedFrom: planned against state as it is once the records moved to their new addresses.
  const { state, moves } = plannedMoves(given.manifests, given.state);
  const options: PlanOptions = { ...given, state };
  const graph = options.graph ?? buildGraph(options.manifests);
  const selected = selectTargets(options.manifests, options.targets, graph);
  const limit = pLimit(options.parallelism);
  // Reads begun while the manifests loaded were made from state before any move: moved, read again.
  const begun = moves.size === 0 && !options.targets?.length && options.begun?.state === given.state ? options.begun : undefined;
  const resolved = begun?.resolved ?? specResolver(state, options.resolve, options.kinds);
  const reads = begun ? finishReads(begun.reads, selected) : prefetchReads(selected, { ...options, resolved });
  const announce = <T extends PlannedStep | undefined>(step: T): T => {
    if (step) options.events?.({ type: 'planned', address: step.change.address, action: step.change.action });
    return step;
  };
  // What left the manifests needs no listing: found while the listings are still out, not after them.
  const orphans = planOrphans(options);
  // Manifests whose listing is in are compared one after another: the event loop runs between slices.
  // A manifest takes a place under the limit once its listing has answered, in the order listings
  // answer: taken in the manifests' order, one listing still out held every place while the answered
  // waited (a throttled plan of 100,000 compared a tenth of them after the last answer).
  const slice = timeSlices();
  const planned = mergeDiagnosed(
    await Promise.all(
      selected.map(async (m) => {
        await reads.listed(m.address);
        return limit(async () => {
          await slice();
          const step = await planManifest(m, options, resolved, reads);
          return diagnosed(announce(movedStep(step.value, moves)), step.diagnostics);
        });
      }),
    ),
  );
  const steps = [...planned.value.filter((s): s is PlannedStep => s !== undefined), ...inDeleteOrder(orphans.value).map(announce)];
  noteBlockedDependents(steps, graph);
  const diagnostics = [
    ...(options.diagnostics ?? []),
    ...planned.diagnostics,
    ...orphans.diagnostics,
    ...untrackedLiveDiagnostics(steps, options.allowUntracked),
    ...(await namesakeDiagnostics(steps, options.ctx, options.allowUntracked)),
    ...foreignStateDiagnostics(steps, options.replace),
    ...(await preflight(steps, options.ctx, options.allowDestructive)),
  ];
  const changes = steps.map((s) => s.change);
  const located = locateAtManifests(diagnostics, options.manifests);
  return { plan: { format: 'moor-plan/1', serial: state.serial, changes, summary: summarize(changes), diagnostics: located }, steps, graph };
}

/** The begun reads with every selected manifest added (those already added are not read twice). */
function finishReads(reads: PrefetchRun, selected: readonly Manifest[]): Prefetched {
  for (const m of selected) reads.add(m);
  reads.finish();
  return reads;
}

/** The step of a manifest whose record moves from a former address (metadata.movedFrom) says so. */
function movedStep(step: PlannedStep | undefined, moves: ReadonlyMap<string, string>): PlannedStep | undefined {
  const from = step && moves.get(step.change.address);
  return from ? { ...step, change: { ...step.change, movedFrom: from } } : step;
}

async function planManifest(
  manifest: Manifest,
  options: PlanOptions,
  resolvedSpec: (manifest: Manifest) => ResolvedSpec,
  reads: Prefetched,
): Promise<Diagnosed<PlannedStep | undefined>> {
  const kind = options.kinds.kindNamed(manifest.kind);
  if (!kind) return diagnosed(undefined);
  const resolved = resolvedSpec(manifest);
  registerResolvedSecrets(options.resolve.secrets, sensitivePatterns(kind, manifest), resolved.spec);
  if (resolved.diagnostics.some((d) => d.severity === 'error')) return diagnosed(undefined, resolved.diagnostics);
  const invalid = resolved.pending ? [] : validateResolved(manifest, kind, resolved.spec);
  if (invalid.length > 0) return diagnosed(undefined, [...resolved.diagnostics, ...invalid]);
  const planned = await planKind(kind, manifest, resolved.spec, options, reads);
  return diagnosed(planned.value, [...resolved.diagnostics, ...planned.diagnostics]);
}

/** The step of a resolved, valid manifest; a user's failure (a service's refusal) is its diagnostic. */
async function planKind(
  kind: KindDefinition,
  manifest: Manifest,
  desired: JsonObject,
  options: PlanOptions,
  reads: Prefetched,
): Promise<Diagnosed<PlannedStep | undefined>> {
  const record = options.state.resources[manifest.address];
  const events = options.events;
  const ctx: KindContext = events ? { ...options.ctx, log: (message) => events({ type: 'progress', address: manifest.address, message }) } : options.ctx;
  try {
    if (kind.category === 'check') return await planCheck(kind, manifest, desired, ctx);
    if (kind.category === 'job') return await planJob(kind, manifest, desired, record, ctx);
    return await planResource(kind, manifest, desired, record, ctx, reads, ignorePathsOf(manifest, options.ignore ?? [], options.kinds));
  } catch (err) {
    if (!isUserFailure(err)) throw err; // a bug: the CLI shows it with its stack
    return diagnosed(undefined, [failure(manifest, err)]);
  }
}

async function planResource(
  kind: ResourceKind,
  manifest: Manifest,
  written: JsonObject,
  record: ResourceRecord | undefined,
  ctx: KindContext,
  reads: Prefetched,
  ignore: readonly IgnorePath[],
): Promise<Diagnosed<PlannedStep>> {
  let desired = written;
  const handler = kind.resource;
  const listed = (await reads.listed(manifest.address)) ?? 'read';
  const observed = listed !== 'read' ? listed.observed : await handler.read(ctx, readTarget(manifest, desired, record));
  const sensitive = sensitivePatterns(kind, manifest);
  if (!observed) {
    const vanished = record !== undefined && record.pending?.action !== 'create';
    const reason = vanished ? reasonFields({ code: 'vanished', text: 'deleted outside moor since the last apply' }) : {};
    // A create shows what it will make: every field set, secrets masked, unknowns marked.
    const after = shownSpec(desired, sensitive);
    const fields = createFields(desired, kind.diff, sensitive, vanished ? 'drift' : 'manifest');
    return diagnosed({
      intent: 'create',
      kind,
      manifest,
      record,
      desired,
      change: { ...change(manifest, 'create', { drift: vanished, ...reason }), fields, after, patch: [{ op: 'add', path: '', value: after }] },
    });
  }
  // Ignored fields take their live value before the comparison: never a diff, and the write carries them.
  const kept = ignore.length > 0 ? keepIgnoredLive(desired, observed.spec, ignore, compileRules(kind.diff)) : undefined;
  const ignored =
    kept && kept.places.length > 0
      ? diffResource({ desired, last: record?.lastApplied, live: observed.spec, rules: kind.diff, sensitive }).filter((f) => isUnderPlace(f.path, kept.places))
          .length
      : 0;
  if (kept) desired = kept.spec;
  let fields = diffResource({ desired, last: record?.lastApplied, live: observed.spec, rules: kind.diff, sensitive });
  const replace = fields.some((f) => f.forcesReplace);
  // A replace creates the new resource under the name the manifest gives it (metadata.name when the
  // spec leaves it out): after a rename that is not the live one's, and the plan must show it.
  const nameField = handler.nameField;
  if (replace && nameField !== undefined && fieldOf(desired, nameField) === undefined) {
    fields = diffResource({ desired: { ...desired, [nameField]: manifest.name }, last: record?.lastApplied, live: observed.spec, rules: kind.diff, sensitive });
  }
  const action = fields.length === 0 ? 'no-op' : replace ? 'replace' : 'update';
  const destructive = action === 'replace' && handler.replaceIsDestructive === true;
  const forcing = fields.filter((f) => f.forcesReplace).map((f) => f.path);
  const shown = fields.map(({ desiredPath: _d, ...f }) => f);
  // Found live under the manifest's identity with no record in state: adopted, but said so (state may be lost).
  const untracked = record === undefined ? { untracked: true } : {};
  const resent = action === 'update' ? resentFields(desired, kind.diff, shown) : [];
  const base = { kind, manifest, record, desired, observed, ...(ignore.length > 0 ? { ignore } : {}) };
  if (action === 'no-op' && (observed.inProgress || observed.failed) && handler.awaitSettled) {
    const settling = settlingStep(base);
    return ignored > 0 ? diagnosed({ ...settling.value, change: { ...settling.value.change, ignored } }, settling.diagnostics) : settling;
  }
  const planned: PlannedChange = {
    ...change(manifest, action, {
      drift: fields.some((f) => f.cause === 'drift'),
      destructive,
      ...reasonFields(replace ? { code: 'immutable-field', text: `${forcing.join(', ')} cannot change in place` } : undefined),
      ...untracked,
    }),
    fields: shown,
    patch: patchOf(shown),
    ...(action === 'replace' ? { after: shownSpec(desired, sensitive) } : {}),
    ...(resent.length > 0 ? { resent } : {}),
    ...(ignored > 0 ? { ignored } : {}),
    ...adoptedSecretsKept(record, desired, sensitive),
  };
  if (action === 'update') return diagnosed({ ...base, intent: 'update', changedPaths: fields.map((f) => f.desiredPath), change: planned });
  return diagnosed({ ...base, intent: action, change: planned });
}

/** The secrets moor discover adopted unseen that the manifest still leaves unset (plan says so, once). */
function adoptedSecretsKept(record: ResourceRecord | undefined, desired: JsonObject, sensitive: readonly string[]): { adoptedSecrets?: number } {
  if (!record) return {};
  let n = 0;
  // Only along the secrets' paths: most of a spec holds none.
  mapSensitive(record.lastApplied, sensitive, (value, path) => {
    if (value === ADOPTED_SECRET && keepsAdoptedSecret(getAt(desired, path) as JsonValue | undefined)) n++;
    return value;
  });
  return n > 0 ? { adoptedSecrets: n } : {};
}

async function planJob(
  kind: JobKind,
  manifest: Manifest,
  desired: JsonObject,
  record: ResourceRecord | undefined,
  ctx: KindContext,
): Promise<Diagnosed<PlannedStep>> {
  const job = kind.job;
  const revision = job.revision(desired);
  const last = record?.runs?.at(-1) as JobRecord | undefined;
  const base = { kind, manifest, record, desired };
  if (last?.revision === revision) {
    if (isUnknown(last) || job.lostAnswer?.(last)) {
      // What the service can tell settles it; otherwise the job blocks its dependents until the user resolves it.
      const found = await recheckUnknown(job, ctx, desired, last);
      if (found) {
        const runs = [...(record?.runs ?? []).slice(0, -1), found];
        return diagnosed({
          ...base,
          intent: 'run',
          record: record && { ...record, runs },
          change: change(manifest, 'run', {
            destructive: job.destructive,
            ...reasonFields({
              code: 'resumes-unknown',
              text: `resumes following the run of revision ${revision}: its outcome was unknown, the service knows it now`,
            }),
          }),
        });
      }
      return diagnosed(
        {
          ...base,
          intent: 'unresolved',
          why: unresolvedMessage(manifest.address, revision),
          change: change(manifest, 'no-op', reasonFields({ code: 'outcome-unknown', text: `the outcome of revision ${revision} is unknown` })),
        },
        [unknownOutcomeDiagnostic(manifest, revision, last)],
      );
    }
    if (resolvedAsFailed(last)) {
      return diagnosed({
        ...base,
        intent: 'run',
        change: change(manifest, 'run', {
          destructive: job.destructive,
          ...reasonFields({ code: 'resolved-failed', text: `revision ${revision} was resolved as failed (moor state resolve): it runs again` }),
        }),
      });
    }
    if (last.status === 'started') {
      return diagnosed({
        ...base,
        intent: 'run',
        change: change(manifest, 'run', {
          destructive: job.destructive,
          ...reasonFields({ code: 'resumes-started', text: `resumes following the run of revision ${revision} started earlier` }),
        }),
      });
    }
    if (last.status === 'failed') {
      const why = last.message ? ` (${valueText(last.message)})` : '';
      return diagnosed({ ...base, intent: 'blocks', why: `revision ${revision} failed`, change: change(manifest, 'no-op', {}) }, [
        {
          severity: 'warning',
          address: manifest.address,
          location: manifest.source.locate(['spec', 'revision']),
          message: `${manifest.address}: revision ${revision} failed earlier and is not retried blindly: change spec.revision to run it again${why}`,
        },
      ]);
    }
    return diagnosed({ ...base, intent: 'no-op', change: change(manifest, 'no-op', {}) });
  }
  const reason: Reason = last
    ? { code: 'revision-changed', text: `revision changed from ${last.revision} to ${revision}` }
    : { code: 'never-run', text: `never run (revision ${revision})` };
  return diagnosed({ ...base, intent: 'run', change: change(manifest, 'run', { destructive: job.destructive, ...reasonFields(reason) }) });
}

async function planCheck(kind: CheckKind, manifest: Manifest, desired: JsonObject, ctx: KindContext): Promise<Diagnosed<PlannedStep>> {
  const severity = desired.severity === 'warning' ? 'warning' : 'error';
  let result: CheckResult;
  try {
    result = await kind.check.evaluate(ctx, desired);
  } catch (err) {
    if (!isUserFailure(err)) throw err;
    // The service could not answer: the check did not pass, and the request's failure is an error whatever the severity.
    const message = `could not be evaluated: ${err instanceof Error ? err.message : String(err)}`;
    return diagnosed({ intent: 'no-op', kind, manifest, desired, change: { ...change(manifest, 'no-op', {}), check: { passed: false, severity, message } } }, [
      failure(manifest, err),
    ]);
  }
  const step: PlannedStep = {
    intent: 'no-op',
    kind,
    manifest,
    desired,
    change: { ...change(manifest, 'no-op', {}), check: { passed: result.passed, severity, message: result.message } },
  };
  if (result.passed) return diagnosed(step);
  return diagnosed(step, [
    { severity, address: manifest.address, location: manifest.source.locate(['spec']), message: `check failed: ${result.message}`, code: 'check' },
  ]);
}

/**
 * Resources in state that left the manifests: deleted with prune, otherwise a warning. Protect
 * holds for every kind; a job's record (its run history) is kept, so a returning manifest with
 * the same revision does not run again; a prune that looks like the wrong folder is refused.
 */
function planOrphans(options: PlanOptions): Diagnosed<PlannedStep[]> {
  const present = new Set(options.manifests.map((m) => m.address));
  const steps: PlannedStep[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [address, record] of Object.entries(options.state.resources)) {
    if (present.has(address)) continue;
    if (options.targets?.length && !options.targets.includes(address)) continue;
    const kind = options.kinds.kindNamed(record.kind);
    if (!kind || kind.category === 'check') continue;
    if (!options.prune) {
      if (kind.category === 'resource')
        diagnostics.push({ severity: 'warning', address, message: 'is in state but no longer in the manifests; run apply --prune to delete it' });
    } else if (record.protect) {
      diagnostics.push({
        severity: 'error',
        address,
        message:
          'is protected (metadata.protect) and cannot be pruned; remove protection by applying it with protect: false first, or `moor state rm --force` it',
      });
    } else if (kind.category === 'job') {
      diagnostics.push({
        severity: 'warning',
        address,
        message:
          'is a job no longer in the manifests: prune keeps its run history in state, so the same revision does not run again if it returns; `moor state rm` forgets it',
      });
    } else {
      steps.push({
        intent: 'delete',
        kind,
        record,
        change: {
          ...blank(address, record.kind),
          action: 'delete',
          ...reasonFields({ code: 'pruned', text: 'not in manifests (--prune)' }),
          destructive: kind.resource.replaceIsDestructive === true,
        },
      });
    }
  }
  // Resources only: the records of retired jobs stay in state for good and must not tip the balance.
  const inState = Object.entries(options.state.resources)
    .filter(([, r]) => options.kinds.kindNamed(r.kind)?.category === 'resource')
    .map(([a]) => a);
  const refusal = massDeleteRefusal({
    manifests: options.manifests.length,
    inState: inState.length,
    kept: inState.filter((a) => present.has(a)).length,
    deletes: steps.length,
    allowMassDelete: options.allowMassDelete,
  });
  return diagnosed(steps, refusal ? [...diagnostics, refusal] : diagnostics);
}

/** Kind-specific checks over all planned creates (e.g. quota) before anything is sent. */
async function preflight(steps: readonly PlannedStep[], ctx: KindContext, allowDestructive: readonly string[] | undefined): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  const byKind = new Map<ResourceKind, { address: string; spec: JsonObject }[]>();
  for (const s of steps) {
    if ((s.change.action === 'create' || s.change.action === 'replace') && s.kind.category === 'resource' && s.kind.resource.preflight && s.desired) {
      const list = byKind.get(s.kind) ?? [];
      list.push({ address: s.change.address, spec: s.desired });
      byKind.set(s.kind, list);
    }
  }
  for (const [kind, creates] of byKind) {
    try {
      for (const e of (await kind.resource.preflight?.(ctx, creates)) ?? [])
        diagnostics.push({ severity: 'error', address: e.address, message: e.message, code: 'preflight' });
    } catch (err) {
      if (!isUserFailure(err)) throw err;
      diagnostics.push({ severity: 'error', message: `preflight of ${kind.kind} failed: ${(err as Error).message}` });
    }
  }
  // Refuse a destructive change to a protected resource before anything is sent.
  for (const s of steps) {
    const refused = protectedChangeError(s, allowDestructive);
    if (refused) diagnostics.push(refused);
  }
  return diagnostics;
}

function change(manifest: Manifest, action: PlannedChange['action'], extra: Partial<PlannedChange>): PlannedChange {
  return { ...blank(manifest.address, manifest.kind), action, ...extra };
}

function blank(address: string, kind: string): PlannedChange {
  return { address, kind, action: 'no-op', fields: [], patch: [], drift: false, destructive: false };
}

function failure(manifest: Manifest, err: unknown): Diagnostic {
  const message = (err as { message?: unknown } | null | undefined)?.message;
  return { severity: 'error', address: manifest.address, message: typeof message === 'string' ? message : String(err) };
}

// A catalog of fake kinds — structs of functions over an in-memory service — for table tests of
// the planner and applier: no HTTP, no providers, every call the engine makes written down.
import type { EventSink } from '../../core/events.js';
import { UserError } from '../../core/diagnostics.js';
import { valueText, type JsonObject } from '../../core/json.js';
import { kindCatalog, type KindCatalog } from '../../core/kind-catalog.js';
import type { CheckKind, JobKind, JobRecord, KindContext, Observed, ResourceHandler, ResourceKind } from '../../core/kind.js';
import { applyPlan } from '../apply/applier.js';
import type { StepOutcome } from '../../core/events.js';
import { markStarted } from '../../core/request-context.js';
import { addressOf, API_VERSION, type Manifest } from '../manifest.js';
import { makePlan, type PlanResult } from '../plan/planner.js';
import { StateRecorder } from '../state/recorder.js';
import type { StateBackend, StateDocument } from '../state/types.js';

/** The fake service: what lives there by address, the calls it got, and the calls it refuses. */
export class FakeCloud {
  readonly live = new Map<string, JsonObject>();
  readonly calls: string[] = [];
  /** Calls ('create Thing/a', 'run Task/j') answered with a UserError, as a service refusal. */
  readonly refuse = new Set<string>();

  call(what: string): void {
    this.calls.push(what);
    if (this.refuse.has(what)) throw new UserError(`${what}: refused by the service (code Conflict)`);
  }
}

const SCHEMA: JsonObject = { type: 'object' };

/** A service call's answer: the work runs at once, and what it throws (a refusal) rejects, as from an async method. */
function answer<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(work());
  });
}

/** `Thing`: a resource whose `region` cannot change in place; the service names it by address. */
export function fakeResourceKind(cloud: FakeCloud, overrides: Partial<ResourceHandler> = {}, kind = 'Thing'): ResourceKind {
  const observed = (name: string): Observed | undefined => {
    const spec = cloud.live.get(addressOf(kind, name));
    return spec && { id: addressOf(kind, name), spec, outputs: spec };
  };
  const written = (name: string, spec: JsonObject): Observed => {
    cloud.live.set(addressOf(kind, name), spec);
    return { id: addressOf(kind, name), spec, outputs: spec };
  };
  const resource: ResourceHandler = {
    read: (_ctx, target) => answer(() => observed(target.name)),
    create: (_ctx, name, spec) =>
      answer(() => {
        cloud.call(`create ${addressOf(kind, name)}`);
        return written(name, spec);
      }),
    update: (_ctx, name, spec) =>
      answer(() => {
        cloud.call(`update ${addressOf(kind, name)}`);
        return written(name, spec);
      }),
    delete: (_ctx, id) =>
      answer(() => {
        cloud.call(`delete ${id}`);
        cloud.live.delete(id);
      }),
    idempotentWrites: true,
    ...overrides,
  };
  return {
    kind,
    category: 'resource',
    description: 'a fake resource',
    specSchema: SCHEMA,
    sensitive: [],
    diff: { serverPopulated: [], writeOnly: [], immutable: ['region'], arrayKeys: {}, writes: { summary: 'PATCH', whole: [] } },
    resource,
  };
}

/** `Task`: a job run once per `revision`; `spec.label` names it in the calls; `spec.fail` makes its run fail. */
export function fakeJobKind(cloud: FakeCloud): JobKind {
  return {
    kind: 'Task',
    category: 'job',
    description: 'a fake job',
    specSchema: SCHEMA,
    sensitive: [],
    job: {
      destructive: false,
      revision: (spec) => valueText(spec.revision),
      run: async (_ctx, spec, _record, checkpoint) => {
        const revision = valueText(spec.revision);
        await checkpoint({ revision, status: 'started' });
        cloud.call(`run Task/${valueText(spec.label)}`);
        const done: JobRecord = spec.fail ? { revision, status: 'failed', message: 'the job failed' } : { revision, status: 'succeeded' };
        return done;
      },
    },
  };
}

/** `Probe`: a check that passes when `spec.pass` is true. */
export function fakeCheckKind(): CheckKind {
  return {
    kind: 'Probe',
    category: 'check',
    description: 'a fake check',
    specSchema: SCHEMA,
    sensitive: [],
    check: { evaluate: (_ctx, spec) => Promise.resolve({ passed: spec.pass === true, message: spec.pass === true ? 'fine' : 'not fine' }) },
  };
}

export function fakeCatalog(cloud: FakeCloud, overrides: Partial<ResourceHandler> = {}): KindCatalog {
  return kindCatalog([fakeResourceKind(cloud, overrides), fakeJobKind(cloud), fakeCheckKind()]);
}

/** A manifest as loading would make it, without a file. */
export function manifest(kind: string, name: string, spec: JsonObject, options: { dependsOn?: string[]; protect?: boolean } = {}): Manifest {
  const file = `${name}.yaml`;
  return {
    apiVersion: API_VERSION,
    kind,
    name,
    address: addressOf(kind, name),
    dependsOn: options.dependsOn ?? [],
    protect: options.protect ?? false,
    spec,
    source: { file, path: `/${file}`, locate: () => ({ file, line: 1, col: 1 }) },
  };
}

export function memoryBackend(initial: StateDocument): StateBackend {
  let serial = initial.serial;
  return {
    location: 'memory',
    read: () => Promise.resolve(initial),
    write: (next) => Promise.resolve({ ...next, version: 1 as const, serial: ++serial }),
    appendChanges: () => Promise.resolve(++serial),
    lock: () => Promise.reject(new Error('not used')),
    unlock: () => Promise.resolve(),
    forceUnlock: () => Promise.resolve(undefined),
    close: () => Promise.resolve(),
  };
}

export const EMPTY_STATE: StateDocument = { version: 1, serial: 0, resources: {} };

// Fake kinds call no provider: their clients are no clients, whichever step they work for.
// (the kinds' type names the real clients: this object has none of them, and fake kinds call none).
const NO_CLIENTS = { forRequests: () => NO_CLIENTS } as unknown as KindContext['providers'];
const CTX: KindContext = { providers: NO_CLIENTS, log: () => undefined };

/** What sending a request does for a step: from now on it has started (an interruption no longer skips it). */
export function sentRequest(ctx: KindContext): void {
  if (ctx.requests) markStarted(ctx.requests);
}

export function planWith(
  catalog: KindCatalog,
  manifests: readonly Manifest[],
  state: StateDocument = EMPTY_STATE,
  options: { prune?: boolean; events?: EventSink } = {},
): Promise<PlanResult> {
  return makePlan({ manifests, kinds: catalog, state, ctx: CTX, events: options.events, resolve: { env: {} }, parallelism: 4, prune: options.prune });
}

export interface Applied {
  readonly plan: PlanResult;
  readonly outcomes: readonly StepOutcome[];
  readonly state: StateDocument;
}

/** Plans, then applies whatever was planned; the state is what the recorder holds afterwards. */
export async function planAndApply(
  catalog: KindCatalog,
  manifests: readonly Manifest[],
  state: StateDocument = EMPTY_STATE,
  options: { prune?: boolean; parallelism?: number; signal?: AbortSignal; events?: EventSink } = {},
): Promise<Applied> {
  const plan = await planWith(catalog, manifests, state, options);
  const recorder = new StateRecorder(memoryBackend(state), state);
  const outcomes = await applyPlan({
    steps: plan.steps,
    manifests,
    recorder,
    ctx: CTX,
    resolve: { env: {} },
    parallelism: options.parallelism ?? 4,
    events: options.events,
    signal: options.signal,
  });
  return { plan, outcomes, state: recorder.current() };
}

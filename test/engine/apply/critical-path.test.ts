// Critical path first: chains weigh what waits on them, and apply sends a long chain's requests
// before a wide set of independent leaves when only a few requests may be in flight.
import { describe, expect, test } from 'vitest';
import type { Manifest } from '../../../src/engine/manifest.js';
import { buildGraph } from '../../../src/engine/graph.js';
import type { PlannedStep } from '../../../src/engine/plan/steps.js';
import type { StateBackend, StateDocument } from '../../../src/engine/state/types.js';
import { StateRecorder } from '../../../src/engine/state/recorder.js';
import type { KindContext, KindDefinition } from '../../../src/core/kind.js';
import { RequestScheduler } from '../../../src/providers/request-scheduler.js';
import { criticalPathWeights } from '../../../src/engine/apply/critical-path.js';
import { applyPlan } from '../../../src/engine/apply/applier.js';

function manifest(address: string, dependsOn: string[] = []): Manifest {
  const [kind, name] = address.split('/');
  return {
    apiVersion: 'moor/v1',
    kind,
    name,
    address,
    dependsOn,
    protect: false,
    spec: {},
    source: { file: 'm.yaml', path: '/m.yaml', locate: () => ({ file: 'm.yaml', line: 1, col: 1 }) },
  };
}

// No clients (the kinds' type names the real ones; the fake kind calls none).
const NO_CLIENTS = { forRequests: () => NO_CLIENTS } as unknown as KindContext['providers'];

/** A kind whose create is one request through the scheduler, logged in the order sent. */
function fakeKind(scheduler: RequestScheduler, sent: string[], typicalStepSeconds?: number, kind = 'Fake'): KindDefinition {
  return {
    kind,
    category: 'resource',
    description: 'test',
    specSchema: {},
    sensitive: [],
    typicalStepSeconds,
    diff: { serverPopulated: [], writeOnly: [], immutable: [], arrayKeys: {}, writes: { summary: 'test', whole: [] } },
    resource: {
      idempotentWrites: true,
      read: async () => undefined,
      create: async (ctx, name) => {
        // The fake "providers" carry the step's request context, as real bound clients do.
        const { requests } = ctx;
        await scheduler.run(
          'arm',
          'PUT',
          new URL(`http://x/subscriptions/s/${name}`),
          async () => {
            sent.push(name);
            await new Promise((r) => setImmediate(r));
            return { status: 200, headers: new Headers() };
          },
          requests,
        );
        return { id: name, spec: {}, outputs: {} };
      },
      update: async () => {
        throw new Error('no update');
      },
      delete: async () => undefined,
    },
  };
}

function createStep(kind: KindDefinition, m: Manifest): PlannedStep {
  if (kind.category !== 'resource') throw new Error('only resources are created');
  return {
    intent: 'create',
    kind,
    manifest: m,
    desired: {},
    change: { address: m.address, kind: m.kind, action: 'create', fields: [], patch: [], drift: false, destructive: false },
  };
}

function memoryBackend(): StateBackend {
  let doc: StateDocument = { version: 1, serial: 0, resources: {} };
  return {
    location: 'memory',
    read: async () => doc,
    write: async (next) => (doc = { ...next, serial: doc.serial + 1 } as StateDocument),
    lock: async () => {
      throw new Error('unused');
    },
    unlock: async () => undefined,
    forceUnlock: async () => undefined,
    close: async () => undefined,
  };
}

describe('critical path', () => {
  test("a step weighs itself plus the heaviest chain waiting on it; a kind's typical step time counts", () => {
    const scheduler = new RequestScheduler({ concurrency: 1 });
    const slow = fakeKind(scheduler, [], 30, 'Slow');
    const fast = fakeKind(scheduler, []);
    const ms = [manifest('Slow/a'), manifest('Slow/b', ['Slow/a']), manifest('Fake/c', ['Slow/b']), manifest('Fake/d', ['Slow/a']), manifest('Fake/leaf')];
    const steps = ms.map((m) => createStep(m.kind === 'Slow' ? slow : fast, m));
    const w = criticalPathWeights(buildGraph(ms), steps);
    expect(Object.fromEntries(w)).toEqual({ 'Slow/a': 61, 'Slow/b': 31, 'Fake/c': 1, 'Fake/d': 1, 'Fake/leaf': 1 });
  });

  test('with one request in flight, a chain of five goes ahead of thirty independent leaves', async () => {
    const scheduler = new RequestScheduler({ concurrency: 1 });
    const sent: string[] = [];
    const kind = fakeKind(scheduler, sent);
    const chain = Array.from({ length: 5 }, (_, i) => manifest(`Fake/chain-${i}`, i > 0 ? [`Fake/chain-${i - 1}`] : []));
    const leaves = Array.from({ length: 30 }, (_, i) => manifest(`Fake/leaf-${String(i).padStart(2, '0')}`));
    // The leaves come first in the plan: without critical-path order they would all go before the chain's second step.
    const manifests = [...leaves, ...chain];
    const backend = memoryBackend();
    const outcomes = await applyPlan({
      steps: manifests.map((m) => createStep(kind, m)),
      manifests,
      recorder: new StateRecorder(backend, await backend.read()),
      // The fake kind reaches no client: it sends through the scheduler with the step's request context.
      ctx: { providers: NO_CLIENTS, log: () => undefined },
      resolve: { env: {} },
      parallelism: 1,
    });
    expect(outcomes.every((o) => o.status === 'done')).toBe(true);
    // The first ready step takes the free slot at once; from then on the chain goes first.
    expect(sent.indexOf('chain-0')).toBeLessThan(2);
    // In arrival order chain-1 would be 32nd; each link goes as soon as its dependency is recorded.
    expect(sent.indexOf('chain-1')).toBeLessThan(4);
    expect(sent.indexOf('chain-3')).toBeLessThan(10);
  });
});

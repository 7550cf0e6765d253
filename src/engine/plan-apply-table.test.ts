// The planner and applier over a catalog of fake kinds: no HTTP, no providers — ordering,
// skip-on-failure, root causes, replace, prune, jobs, checks and interrupt, case by case.
import { describe, expect, test } from 'vitest';
import { UserError } from '../core/diagnostics.js';
import { recordingSink } from '../core/events.js';
import type { JsonObject } from '../core/json.js';
import type { ResourceRecord, StateDocument } from './state/types.js';
import { interruption } from '../core/interrupted.js';
import { FakeCloud, fakeCatalog, manifest, planAndApply, planWith, sentRequest } from './testing/fake-kinds.js';

const thing = (name: string, spec: JsonObject = { region: 'north' }, dependsOn: string[] = []) => manifest('Thing', name, spec, { dependsOn });
const task = (name: string, spec: JsonObject, dependsOn: string[] = []) => manifest('Task', name, { label: name, ...spec }, { dependsOn });

function stateOf(resources: Record<string, Partial<ResourceRecord> & { kind: string }>): StateDocument {
  const full = Object.fromEntries(
    Object.entries(resources).map(([address, r]) => [
      address,
      {
        name: address.split('/')[1],
        lastApplied: {},
        updatedAt: 't',
        ...r,
      },
    ]),
  );
  return { version: 1, serial: 1, resources: full };
}

/** A Thing live in the fake cloud and recorded in state as last applied with `spec`. */
function applied(cloud: FakeCloud, name: string, spec: JsonObject, extra: Partial<ResourceRecord> = {}): Partial<ResourceRecord> & { kind: string } {
  cloud.live.set(`Thing/${name}`, spec);
  return { kind: 'Thing', id: `Thing/${name}`, lastApplied: spec, ...extra };
}

const byAddress = (outcomes: readonly { address: string }[]) => Object.fromEntries(outcomes.map((o) => [o.address, o]));

describe('planner and applier with fake kinds', () => {
  describe('ordering', () => {
    test.each([1, 4])('a chain is created in dependency order (parallelism %i)', async (parallelism) => {
      const cloud = new FakeCloud();
      const { outcomes } = await planAndApply(
        fakeCatalog(cloud),
        [thing('c', undefined, ['Thing/b']), thing('b', undefined, ['Thing/a']), thing('a')],
        undefined,
        { parallelism },
      );
      expect(cloud.calls).toEqual(['create Thing/a', 'create Thing/b', 'create Thing/c']);
      expect(outcomes.every((o) => o.status === 'done')).toBe(true);
    });

    test('pruned deletes go last, dependents before what they depend on', async () => {
      const cloud = new FakeCloud();
      const state = stateOf({
        'Thing/base': applied(cloud, 'base', { region: 'north' }),
        'Thing/user': applied(cloud, 'user', { region: 'north' }, { dependsOn: ['Thing/base'] }),
        'Thing/kept': applied(cloud, 'kept', { region: 'north' }),
      });
      const { plan } = await planAndApply(fakeCatalog(cloud), [thing('kept', { region: 'north', size: 2 })], state, { prune: true });
      expect(plan.plan.changes.map((c) => `${c.action} ${c.address}`).sort()).toEqual(['delete Thing/base', 'delete Thing/user', 'update Thing/kept']);
      expect(cloud.calls).toEqual(['update Thing/kept', 'delete Thing/user', 'delete Thing/base']);
    });
  });

  describe('failures', () => {
    test('a refused create fails; its dependents are skipped naming the root cause; the rest is applied', async () => {
      const cloud = new FakeCloud();
      cloud.refuse.add('create Thing/a');
      const { outcomes, state } = await planAndApply(fakeCatalog(cloud), [
        thing('a'),
        thing('b', undefined, ['Thing/a']),
        thing('c', undefined, ['Thing/b']),
        thing('d'),
      ]);
      const by = byAddress(outcomes);
      expect(by['Thing/a']).toMatchObject({ status: 'failed', error: expect.stringContaining('refused by the service') });
      expect(by['Thing/b']).toMatchObject({ status: 'skipped', rootCause: 'Thing/a' });
      expect(by['Thing/c']).toMatchObject({ status: 'skipped', rootCause: 'Thing/a' });
      expect(by['Thing/d']).toMatchObject({ status: 'done' });
      expect(cloud.calls).toEqual(['create Thing/a', 'create Thing/d']);
      expect(Object.keys(state.resources).filter((a) => state.resources[a].id)).toEqual(['Thing/d']);
    });

    test('a read the service refuses is an error diagnostic; nothing is planned for it', async () => {
      const cloud = new FakeCloud();
      cloud.refuse.add('read Thing/a');
      const catalog = fakeCatalog(cloud, {
        read: async (_ctx, t) => {
          cloud.call(`read Thing/${t.name}`);
          return undefined;
        },
      });
      const { plan } = await planWith(catalog, [thing('a'), thing('b')]);
      expect(plan.changes.map((c) => c.address)).toEqual(['Thing/b']);
      expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: 'error', address: 'Thing/a' })]);
    });
  });

  describe('resources', () => {
    test('nothing changed: a no-op that sends nothing', async () => {
      const cloud = new FakeCloud();
      const state = stateOf({ 'Thing/a': applied(cloud, 'a', { region: 'north' }) });
      const { plan } = await planAndApply(fakeCatalog(cloud), [thing('a')], state);
      expect(plan.plan.changes).toEqual([expect.objectContaining({ address: 'Thing/a', action: 'no-op' })]);
      expect(cloud.calls).toEqual([]);
    });

    test('a changed mutable field is an update in place', async () => {
      const cloud = new FakeCloud();
      const state = stateOf({ 'Thing/a': applied(cloud, 'a', { region: 'north', size: 1 }) });
      const { plan } = await planAndApply(fakeCatalog(cloud), [thing('a', { region: 'north', size: 2 })], state);
      expect(plan.plan.changes[0]).toMatchObject({
        action: 'update',
        fields: [expect.objectContaining({ path: '/size', before: 1, after: 2, forcesReplace: false })],
      });
      expect(cloud.calls).toEqual(['update Thing/a']);
    });

    test('a changed immutable field is a replace: delete, then create', async () => {
      const cloud = new FakeCloud();
      const state = stateOf({ 'Thing/a': applied(cloud, 'a', { region: 'north' }) });
      const { plan, state: after } = await planAndApply(fakeCatalog(cloud), [thing('a', { region: 'south' })], state);
      expect(plan.plan.changes[0]).toMatchObject({ action: 'replace', reason: '/region cannot change in place', reasonCode: 'immutable-field' });
      expect(cloud.calls).toEqual(['delete Thing/a', 'create Thing/a']);
      expect(after.resources['Thing/a'].lastApplied).toEqual({ region: 'south' });
    });

    test('deleted outside moor: planned as a create marked drift', async () => {
      const cloud = new FakeCloud();
      const state = stateOf({ 'Thing/a': { kind: 'Thing', id: 'Thing/a', lastApplied: { region: 'north' } } });
      const { plan } = await planWith(fakeCatalog(cloud), [thing('a')], state);
      expect(plan.changes[0]).toMatchObject({ action: 'create', drift: true, reason: 'deleted outside moor since the last apply', reasonCode: 'vanished' });
    });
  });

  describe('prune', () => {
    const orphanState = (cloud: FakeCloud, extra: Partial<ResourceRecord> = {}) =>
      stateOf({
        'Thing/gone': applied(cloud, 'gone', { region: 'north' }, extra),
        'Thing/kept': applied(cloud, 'kept', { region: 'north' }),
      });

    test('without --prune an orphan is a warning, not a step', async () => {
      const cloud = new FakeCloud();
      const { plan } = await planWith(fakeCatalog(cloud), [thing('kept')], orphanState(cloud));
      expect(plan.changes.map((c) => c.action)).toEqual(['no-op']);
      expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', address: 'Thing/gone' })]);
    });

    test('with --prune it is deleted and forgotten', async () => {
      const cloud = new FakeCloud();
      const { plan, state } = await planAndApply(fakeCatalog(cloud), [thing('kept')], orphanState(cloud), { prune: true });
      expect(plan.plan.changes.find((c) => c.address === 'Thing/gone')).toMatchObject({
        action: 'delete',
        reason: 'not in manifests (--prune)',
        reasonCode: 'pruned',
      });
      expect(cloud.calls).toEqual(['delete Thing/gone']);
      expect(Object.keys(state.resources)).toEqual(['Thing/kept']);
    });

    test('a protected orphan is refused with an error', async () => {
      const cloud = new FakeCloud();
      const { plan } = await planWith(fakeCatalog(cloud), [thing('kept')], orphanState(cloud, { protect: true }), { prune: true });
      expect(plan.changes.map((c) => c.action)).toEqual(['no-op']);
      expect(plan.diagnostics).toEqual([
        expect.objectContaining({ severity: 'error', address: 'Thing/gone', message: expect.stringContaining('is protected') }),
      ]);
    });
  });

  describe('jobs and checks', () => {
    test('a job runs once per revision', async () => {
      const cloud = new FakeCloud();
      const first = await planAndApply(fakeCatalog(cloud), [task('j', { revision: '1' })]);
      expect(first.plan.plan.changes[0]).toMatchObject({ action: 'run', reason: 'never run (revision 1)', reasonCode: 'never-run' });
      const again = await planWith(fakeCatalog(cloud), [task('j', { revision: '1' })], first.state);
      expect(again.plan.changes[0]).toMatchObject({ action: 'no-op' });
      const next = await planWith(fakeCatalog(cloud), [task('j', { revision: '2' })], first.state);
      expect(next.plan.changes[0]).toMatchObject({ action: 'run', reason: 'revision changed from 1 to 2', reasonCode: 'revision-changed' });
      expect(cloud.calls).toEqual(['run Task/j']);
    });

    test('a failed run fails its step and skips its dependents; the same revision is then not retried and still blocks them', async () => {
      const cloud = new FakeCloud();
      const manifests = [task('j', { revision: '1', fail: true }), thing('after', undefined, ['Task/j'])];
      const first = await planAndApply(fakeCatalog(cloud), manifests);
      expect(byAddress(first.outcomes)['Task/j']).toMatchObject({ status: 'failed', error: 'Task/j: the job failed' });
      expect(byAddress(first.outcomes)['Thing/after']).toMatchObject({ status: 'skipped', rootCause: 'Task/j' });
      const second = await planAndApply(fakeCatalog(cloud), manifests, first.state);
      expect(second.plan.plan.changes.find((c) => c.address === 'Task/j')).toMatchObject({ action: 'no-op' });
      expect(second.plan.plan.diagnostics).toEqual([
        expect.objectContaining({ severity: 'warning', message: expect.stringContaining('revision 1 failed earlier') }),
      ]);
      expect(byAddress(second.outcomes)['Thing/after']).toMatchObject({ status: 'skipped', rootCause: 'Task/j' });
      expect(cloud.calls).toEqual(['run Task/j']);
    });

    test('a check that does not pass is an error diagnostic; it changes nothing', async () => {
      const cloud = new FakeCloud();
      const { plan } = await planWith(fakeCatalog(cloud), [manifest('Probe', 'p', { pass: false }), manifest('Probe', 'q', { pass: true })]);
      expect(plan.changes.map((c) => [c.address, c.action, c.check?.passed])).toEqual([
        ['Probe/p', 'no-op', false],
        ['Probe/q', 'no-op', true],
      ]);
      expect(plan.diagnostics).toEqual([expect.objectContaining({ severity: 'error', address: 'Probe/p', message: 'check failed: not fine' })]);
    });
  });

  describe('events', () => {
    test("a kind's progress lines while planning reach the event stream as progress of its address", async () => {
      const cloud = new FakeCloud();
      const catalog = fakeCatalog(cloud, {
        read: async (ctx, target) => {
          ctx.log(`looked for ${target.name}`);
          return undefined;
        },
      });
      const { sink, events } = recordingSink();
      await planWith(catalog, [thing('a')], undefined, { events: sink });
      // The planner now also says what it decided once it has (a planned event follows the kind's lines).
      expect(events).toEqual([
        { type: 'progress', address: 'Thing/a', message: 'looked for a' },
        { type: 'planned', address: 'Thing/a', action: 'create' },
      ]);
    });

    test('the planner emits one planned event per change as it decides it: creates, updates, no-ops, runs, checks and pruned deletes', async () => {
      const cloud = new FakeCloud();
      const state = stateOf({
        'Thing/kept': applied(cloud, 'kept', { region: 'north' }),
        'Thing/moved': applied(cloud, 'moved', { region: 'north', size: 1 }),
        'Thing/gone': applied(cloud, 'gone', { region: 'north' }),
      });
      const { sink, events } = recordingSink();
      const manifests = [
        thing('new'),
        thing('kept'),
        thing('moved', { region: 'north', size: 2 }),
        task('j', { revision: 1 }),
        manifest('Probe', 'p', { pass: true }),
      ];
      const { plan } = await planWith(fakeCatalog(cloud), manifests, state, { prune: true, events: sink });
      const planned = events.filter((e) => e.type === 'planned');
      expect(planned.map((e) => [e.address, e.action]).sort()).toEqual([
        ['Probe/p', 'no-op'],
        ['Task/j', 'run'],
        ['Thing/gone', 'delete'],
        ['Thing/kept', 'no-op'],
        ['Thing/moved', 'update'],
        ['Thing/new', 'create'],
      ]);
      // One per change of the plan, and the same decision.
      expect(planned.map((e) => [e.address, e.action]).sort()).toEqual(plan.changes.map((c) => [c.address, c.action]).sort());
    });

    test('apply emits step_started, progress and step_finished per step in order; a skip finishes without starting', async () => {
      const cloud = new FakeCloud();
      cloud.refuse.add('create Thing/a');
      const catalog = fakeCatalog(cloud, {
        create: async (ctx, name, spec) => {
          ctx.log(`creating ${name}`);
          cloud.call(`create Thing/${name}`);
          cloud.live.set(`Thing/${name}`, spec);
          return { id: `Thing/${name}`, spec, outputs: spec };
        },
      });
      const { sink, events } = recordingSink();
      await planAndApply(catalog, [thing('a'), thing('b', undefined, ['Thing/a']), thing('c')], undefined, { events: sink, parallelism: 1 });
      const steps = events
        .filter((e) => e.type !== 'planned')
        .map((e) =>
          e.type === 'step_finished'
            ? `finished ${e.outcome.address} ${e.outcome.status}${e.outcome.rootCause ? ` (${e.outcome.rootCause})` : ''}`
            : e.type === 'step_started'
              ? `started ${e.address} ${e.action}`
              : e.type === 'progress'
                ? `progress ${e.address} ${e.message}`
                : e.type,
        );
      const of = (address: string) => steps.filter((l) => l.includes(`${address} `) || l.includes(`${address}:`));
      expect(of('Thing/a')).toEqual(['progress Thing/a creating a', 'started Thing/a create', 'finished Thing/a failed']);
      expect(of('Thing/b')).toEqual(['finished Thing/b skipped (Thing/a)']);
      expect(of('Thing/c')).toEqual(['progress Thing/c creating c', 'started Thing/c create', 'finished Thing/c done']);
    });
  });

  describe('interrupt', () => {
    test('once aborted no new step starts: the running one finishes and is recorded, the rest are skipped as interrupted', async () => {
      const cloud = new FakeCloud();
      const controller = new AbortController();
      const catalog = fakeCatalog(cloud, {
        create: async (_ctx, name, spec) => {
          cloud.call(`create Thing/${name}`);
          controller.abort(); // Ctrl-C while the first create runs
          cloud.live.set(`Thing/${name}`, spec);
          return { id: `Thing/${name}`, spec, outputs: spec };
        },
      });
      const { outcomes, state } = await planAndApply(catalog, [thing('a'), thing('b', undefined, ['Thing/a']), thing('c', undefined, ['Thing/b'])], undefined, {
        signal: controller.signal,
      });
      expect(cloud.calls).toEqual(['create Thing/a']);
      const by = byAddress(outcomes);
      expect(by['Thing/a']).toMatchObject({ status: 'done' });
      expect(by['Thing/b']).toMatchObject({ status: 'skipped', rootCause: 'interrupted' });
      expect(by['Thing/c']).toMatchObject({ status: 'skipped', rootCause: 'interrupted' });
      expect(state.resources['Thing/a']).toMatchObject({ id: 'Thing/a' });
    });

    test("a kind sees apply's signal (its waits end on Ctrl-C); its intent to create stays in state for the next plan", async () => {
      const cloud = new FakeCloud();
      const controller = new AbortController();
      let seen: AbortSignal | undefined;
      const catalog = fakeCatalog(cloud, {
        create: async (ctx, name) => {
          cloud.call(`create Thing/${name}`);
          controller.abort(); // Ctrl-C while the create waits for its operation
          seen = ctx.signal;
          throw new UserError(`Thing/${name}: interrupted while waiting for the operation to finish`);
        },
      });
      const { outcomes, state } = await planAndApply(catalog, [thing('a')], undefined, { signal: controller.signal });
      // A fake kind sends no request, so the step counts as not started: skipped as interrupted.
      expect(byAddress(outcomes)['Thing/a']).toMatchObject({ status: 'skipped', rootCause: 'interrupted' });
      expect(seen).toBe(controller.signal);
      expect(state.resources['Thing/a']).toMatchObject({ pending: expect.anything() });
    });

    test('a step whose wait Ctrl-C cut short is interrupted (not failed); its dependents skip with it as the root cause', async () => {
      const cloud = new FakeCloud();
      const controller = new AbortController();
      const catalog = fakeCatalog(cloud, {
        create: async (ctx, name) => {
          sentRequest(ctx); // the create was sent: the step has started
          cloud.call(`create Thing/${name}`);
          controller.abort(); // Ctrl-C while it waits for its operation
          throw interruption(new UserError(`Thing/${name}: interrupted while waiting for the operation to finish`));
        },
      });
      const { sink, events } = recordingSink();
      const { outcomes, state } = await planAndApply(catalog, [thing('a'), thing('b', undefined, ['Thing/a'])], undefined, {
        signal: controller.signal,
        events: sink,
      });
      const by = byAddress(outcomes);
      expect(by['Thing/a']).toMatchObject({ status: 'interrupted', error: 'Thing/a: interrupted while waiting for the operation to finish' });
      expect(by['Thing/b']).toMatchObject({ status: 'skipped', rootCause: 'Thing/a' });
      expect(events.flatMap((e) => (e.type === 'step_finished' ? [e.outcome.status] : [])).sort()).toEqual(['interrupted', 'skipped']);
      expect(state.resources['Thing/a']).toMatchObject({ pending: expect.anything() });
    });

    test('a service refusal that arrives after Ctrl-C is still a failure, not an interruption', async () => {
      const cloud = new FakeCloud();
      const controller = new AbortController();
      cloud.refuse.add('create Thing/a');
      const catalog = fakeCatalog(cloud, {
        create: async (ctx, name) => {
          sentRequest(ctx);
          controller.abort();
          cloud.call(`create Thing/${name}`);
          throw new Error('unreachable');
        },
      });
      const { outcomes } = await planAndApply(catalog, [thing('a')], undefined, { signal: controller.signal });
      expect(byAddress(outcomes)['Thing/a']).toMatchObject({ status: 'failed', error: 'create Thing/a: refused by the service (code Conflict)' });
    });
  });
});

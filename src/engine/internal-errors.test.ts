// Only user errors (bad input, a service's refusal) become diagnostics or failed steps; a bug —
// a TypeError in a kind — reaches the caller (the CLI prints it as an internal error with its stack).
import { describe, expect, test } from 'vitest';
import { recordingSink } from '../core/events.js';
import { FakeCloud, fakeCatalog, manifest, planAndApply, planWith } from './testing/fake-kinds.js';

const thing = (name: string, extra: Record<string, string> = {}) => manifest('Thing', name, { region: 'north', ...extra });

describe('bugs are not user errors', () => {
  test('a read that throws a TypeError fails the plan with that TypeError, not a diagnostic', async () => {
    const cloud = new FakeCloud();
    const catalog = fakeCatalog(cloud, {
      read: async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
      },
    });
    const planning = planWith(catalog, [thing('a')]);
    await expect(planning).rejects.toBeInstanceOf(TypeError);
    await expect(planning).rejects.toHaveProperty('stack', expect.stringContaining('internal-errors.test.ts'));
  });

  test('a read the service refuses (a UserError) is a diagnostic at its address', async () => {
    const cloud = new FakeCloud();
    cloud.refuse.add('read');
    const catalog = fakeCatalog(cloud, {
      read: async () => {
        cloud.call('read');
        return undefined;
      },
    });
    const { plan } = await planWith(catalog, [thing('a')]);
    expect(plan.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', address: 'Thing/a', message: 'read: refused by the service (code Conflict)' }),
    ]);
  });

  test('a create that throws a TypeError fails its step, skips its dependents, lets the rest finish, then rejects with the TypeError', async () => {
    const cloud = new FakeCloud();
    const catalog = fakeCatalog(cloud, {
      create: async (_ctx, name, spec) => {
        if (name === 'a') throw new TypeError('x is not a function');
        cloud.call(`create Thing/${name}`);
        cloud.live.set(`Thing/${name}`, spec);
        return { id: `Thing/${name}`, spec, outputs: spec };
      },
    });
    const { sink, events } = recordingSink();
    const applying = planAndApply(catalog, [thing('a'), manifest('Thing', 'b', { region: 'north' }, { dependsOn: ['Thing/a'] }), thing('c')], undefined, {
      events: sink,
    });
    await expect(applying).rejects.toBeInstanceOf(TypeError);
    const finished = events.flatMap((e) => (e.type === 'step_finished' ? [`${e.outcome.address} ${e.outcome.status}`] : []));
    expect(finished.sort()).toEqual(['Thing/a failed', 'Thing/b skipped', 'Thing/c done']);
    expect(cloud.calls).toEqual(['create Thing/c']);
  });

  test('a create the service refuses is a failed outcome, and apply resolves', async () => {
    const cloud = new FakeCloud();
    cloud.refuse.add('create Thing/a');
    const { outcomes } = await planAndApply(fakeCatalog(cloud), [thing('a')]);
    expect(outcomes).toEqual([
      expect.objectContaining({ address: 'Thing/a', status: 'failed', error: 'create Thing/a: refused by the service (code Conflict)' }),
    ]);
  });
});

// Pruned deletes: dependents (as state recorded them) go before what they depend on.
import { describe, expect, test } from 'vitest';
import { AuthContext } from '../../../src/resources/auth-context/index.js';
import type { PlannedStep } from '../../../src/engine/plan/steps.js';
import type { StepOutcome } from '../../../src/core/events.js';
import { dependentsAmong, runDeletesInOrder } from '../../../src/engine/apply/delete-order.js';

function del(address: string, dependsOn?: string[]): PlannedStep {
  return {
    kind: AuthContext,
    record: { kind: 'AuthContext', name: address, id: address, lastApplied: {}, dependsOn, updatedAt: '' },
    intent: 'delete',
    change: { address, kind: 'AuthContext', action: 'delete', fields: [], patch: [], drift: false, destructive: false },
  };
}

/** Runs the deletes with a fake delete that logs start and end; `failing` fail. */
async function runAll(steps: PlannedStep[], failing: string[] = []) {
  const log: string[] = [];
  const outcomes = await runDeletesInOrder(
    steps,
    async (s) => {
      const address = s.change.address;
      log.push(`start ${address}`);
      await new Promise((r) => setImmediate(r));
      log.push(`end ${address}`);
      return { address, action: 'delete', status: failing.includes(address) ? 'failed' : 'done' } satisfies StepOutcome;
    },
    (o) => o,
    steps.length,
  );
  return { log, outcomes };
}

describe('runDeletesInOrder', () => {
  test('a chain is deleted from its last dependent to its root', async () => {
    const { log } = await runAll([del('db'), del('app', ['db']), del('auth', ['app'])]);
    expect(log).toEqual(['start auth', 'end auth', 'start app', 'end app', 'start db', 'end db']);
  });

  test('independent deletes start together', async () => {
    const { log } = await runAll([del('a'), del('b'), del('c', ['a'])]);
    expect(log.slice(0, 2).sort()).toEqual(['start b', 'start c']);
    expect(log.indexOf('start a')).toBeGreaterThan(log.indexOf('end c'));
  });

  test('a failed dependent keeps what it depends on: skipped, naming the root cause', async () => {
    const { log, outcomes } = await runAll([del('db'), del('app', ['db']), del('auth', ['app'])], ['auth']);
    expect(log).toEqual(['start auth', 'end auth']);
    expect(outcomes.map((o) => [o.address, o.status, o.rootCause])).toEqual([
      ['db', 'skipped', 'auth'],
      ['app', 'skipped', 'auth'],
      ['auth', 'failed', undefined],
    ]);
  });

  test('dependencies outside the deletes, and records without any (older state), impose no order', async () => {
    const { outcomes } = await runAll([del('x', ['kept']), del('y')]);
    expect(outcomes.every((o) => o.status === 'done')).toBe(true);
  });

  test('records that disagree into a cycle still all get deleted', async () => {
    const edges = dependentsAmong([del('a', ['b']), del('b', ['a'])]);
    expect([...edges.values()].flat()).toHaveLength(1);
    const { outcomes } = await runAll([del('a', ['b']), del('b', ['a'])]);
    expect(outcomes.map((o) => o.status)).toEqual(['done', 'done']);
  });
});

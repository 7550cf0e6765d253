// moor watch's metrics listen to the engine's events: the planner's decisions are counted per stack and action.
import { describe, expect, it } from 'vitest';
import { stackLabel, WatchMetrics } from './metrics.js';

describe('WatchMetrics', () => {
  it('counts the changes each stack plans by action, and no no-ops', async () => {
    const metrics = new WatchMetrics();
    const dev = metrics.stackEvents('dev');
    dev({ type: 'planned', address: 'AuthContext/a', action: 'update' });
    dev({ type: 'planned', address: 'AuthContext/b', action: 'no-op' });
    dev({ type: 'planned', address: 'AuthContext/a', action: 'update' });
    metrics.stackEvents('prod')({ type: 'planned', address: 'ContainerGroup/web', action: 'replace' });
    const text = await metrics.text();
    expect(text).toContain('moor_planned_changes_total{stack="dev",action="update"} 2');
    expect(text).toContain('moor_planned_changes_total{stack="prod",action="replace"} 1');
    expect(text).not.toContain('action="no-op"');
  });

  it('labels the manifests watched without stacks (no stack name) `default` in every stack series', async () => {
    expect(stackLabel(undefined)).toBe('default');
    expect(stackLabel('prod')).toBe('prod');
    const metrics = new WatchMetrics();
    metrics.stackEvents(undefined)({ type: 'planned', address: 'AuthContext/a', action: 'create' });
    metrics.cycle(undefined, 'drifted', 1, [{ address: 'AuthContext/a', kind: 'AuthContext', status: 'drifted' }]);
    metrics.leaseOf(undefined, true);
    const text = await metrics.text();
    for (const series of [
      'moor_planned_changes_total{stack="default",action="create"} 1',
      'moor_reconcile_runs_total{stack="default",result="drifted"} 1',
      'moor_drifted_resources{stack="default"} 1',
      'moor_stack_lease{stack="default"} 1',
    ])
      expect(text).toContain(series);
    expect(text).not.toContain('stack="undefined"');
  });
});

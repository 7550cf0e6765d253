// moor watch's metrics listen to the engine's events: the planner's decisions are counted per stack and action.
import { describe, expect, it } from 'vitest';
import { WatchMetrics } from './metrics.js';

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
});

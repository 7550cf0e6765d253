// --output jsonl of plan and apply: one JSON object per line and event, nothing else on stdout.
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';
import { jsonlSink, type JsonlEvent } from '../../src/cli/jsonl-output.js';

const events = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });

describe('--output jsonl', () => {
  test('plan streams planned changes and a summary', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'm/c2.yaml': authManifest('c2', { displayName: 'Two' }) });
    const r = await moor(dir, undefined, ['plan', 'm', '--output', 'jsonl']);
    expect(r.code).toBe(0);
    const all = events(r.stdout);
    expect(all.map((e) => e.type)).toEqual(['planned_change', 'planned_change', 'plan_summary']);
    expect(all[0]).toMatchObject({ address: 'AuthContext/c1', action: 'create' });
    expect(all[2]).toMatchObject({ create: 2, errors: 0, status: 'planned' });
    expect(typeof all[0].time).toBe('string');
  });

  test('apply streams the plan, each step started and finished, and a summary; the human summary goes to stderr', async () => {
    const dir = workdir({
      'm/c1.yaml': authManifest('c1', { displayName: 'One' }),
      'm/c2.yaml': authManifest('c2', { displayName: 'Two' }, ['AuthContext/c1']),
    });
    const r = await moor(dir, undefined, ['apply', 'm', '--auto-approve', '--output', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    const all = events(r.stdout);
    const types = all.map((e) => e.type);
    expect(types.filter((t) => t === 'planned_change')).toHaveLength(2);
    expect(types.filter((t) => t === 'step_started')).toHaveLength(2);
    expect(all.filter((e) => e.type === 'step_finished').map((e) => [e.address, e.status])).toEqual([
      ['AuthContext/c1', 'done'],
      ['AuthContext/c2', 'done'],
    ]);
    expect(all.at(-1)).toMatchObject({ type: 'apply_summary', status: 'complete', created: 2, failed: 0 });
    expect(r.stderr).toContain('Apply complete: 2 created');
  });

  test('a plan that fails still ends the stream with a failed summary', async () => {
    const dir = workdir({ 'm/c3.yaml': authManifest('c3', { displayName: '${env:MOOR_TEST_NOT_SET}' }) });
    const r = await moor(dir, undefined, ['apply', 'm', '--auto-approve', '--output', 'jsonl']);
    expect(r.code).toBe(1);
    const all = events(r.stdout);
    expect(all.some((e) => e.type === 'diagnostic' && e.severity === 'error')).toBe(true);
    expect(all.at(-1)).toMatchObject({ type: 'plan_summary', status: 'failed', errors: 1 });
  });

  test.each([
    ['without --auto-approve', ['apply', 'm', '--output', 'jsonl'], '--auto-approve'],
    ['of a saved plan that is not there', ['apply', '--plan', 'missing.json', '--output', 'jsonl'], 'missing.json'],
  ])('an apply refused %s still streams a failed apply_summary (stdout is never left empty)', async (_case, args, named) => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const r = await moor(dir, undefined, args);
    expect(r.code).toBe(1);
    const all = events(r.stdout);
    expect(all.at(-1)).toMatchObject({ type: 'apply_summary', status: 'failed', errors: 1 });
    expect(String(all.at(-1)?.message)).toContain(named);
    expect(r.stderr).toContain(named);
  });

  test('apply --refresh-only ends the stream with its apply_summary (refreshOnly, accepted, forgotten), not only the plan_summary', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const r = await moor(dir, undefined, ['apply', 'm', '--auto-approve', '--refresh-only', '--output', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    expect(events(r.stdout).at(-1)).toMatchObject({ type: 'apply_summary', refreshOnly: true, status: 'complete', accepted: 0, forgotten: 0, failed: 0 });
    expect(r.stderr).toContain('Refresh complete: 0 accepted from live into state');
  });

  test('a retried 429 is a throttle event, another retry a retry event', () => {
    const seen: JsonlEvent[] = [];
    // The run's typed events (the transport's waits, core/events.ts); a poll wait has no line.
    const on = jsonlSink((e) => seen.push(e));
    on({ type: 'throttled', service: 'arm', method: 'GET', path: '/x', label: 'x', status: 429, attempt: 1, delayMs: 1000 });
    on({ type: 'request_retried', service: 'arm', method: 'GET', path: '/x', label: 'x', attempt: 2, delayMs: 2000 });
    on({ type: 'poll_wait', service: 'arm', method: 'GET', path: '/x', label: 'x', delayMs: 2000 });
    expect(seen).toEqual([
      { type: 'throttle', service: 'arm', method: 'GET', path: '/x', attempt: 1, status: 429, delayMs: 1000 },
      { type: 'retry', service: 'arm', method: 'GET', path: '/x', attempt: 2, status: null, delayMs: 2000 },
    ]);
  });
});

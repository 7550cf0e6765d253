// `--output jsonl` as a sink of the run's events: the lines each event becomes (the format docs/plan-and-apply.md gives).
import { describe, expect, test } from 'vitest';
import { applySummaryEvent, jsonlSink, type JsonlEvent } from './jsonl-output.js';
import { applySummary } from './apply-summary.js';

describe('jsonl sink', () => {
  test('steps: started, progress and finished (interrupted as its own status); no-ops, planned events, poll waits and notices have no line', () => {
    const seen: JsonlEvent[] = [];
    const sink = jsonlSink((e) => seen.push(e));
    sink({ type: 'planned', address: 'Thing/a', action: 'create' });
    sink({ type: 'step_started', address: 'Thing/a', action: 'create' });
    sink({ type: 'progress', address: 'Thing/a', message: 'sent' });
    sink({ type: 'poll_wait', service: 'arm', method: 'GET', path: '/x', label: 'x', delayMs: 250 });
    sink({ type: 'notice', message: 'moor: using the local cloud' });
    sink({ type: 'step_finished', outcome: { address: 'Thing/a', action: 'create', status: 'interrupted', error: 'x: interrupted while waiting' } });
    sink({ type: 'step_finished', outcome: { address: 'Thing/b', action: 'create', status: 'skipped', rootCause: 'Thing/a' } });
    sink({ type: 'step_finished', outcome: { address: 'Thing/c', action: 'no-op', status: 'done' } });
    expect(seen).toEqual([
      { type: 'step_started', address: 'Thing/a', action: 'create' },
      { type: 'progress', address: 'Thing/a', message: 'sent' },
      { type: 'step_finished', address: 'Thing/a', action: 'create', status: 'interrupted', error: 'x: interrupted while waiting' },
      { type: 'step_finished', address: 'Thing/b', action: 'create', status: 'skipped', rootCause: 'Thing/a' },
    ]);
  });

  test('a no-op that started (it waits for an earlier write the service still carries out) finishes too', () => {
    const seen: JsonlEvent[] = [];
    const sink = jsonlSink((e) => seen.push(e));
    sink({ type: 'step_started', address: 'Thing/g', action: 'no-op' });
    sink({ type: 'step_finished', outcome: { address: 'Thing/g', action: 'no-op', status: 'failed', error: 'it ended Failed' } });
    expect(seen).toEqual([
      { type: 'step_started', address: 'Thing/g', action: 'no-op' },
      { type: 'step_finished', address: 'Thing/g', action: 'no-op', status: 'failed', error: 'it ended Failed' },
    ]);
  });

  test('retry and throttle lines name the step whose request it was when there is one; answers have no line', () => {
    const seen: JsonlEvent[] = [];
    const sink = jsonlSink((e) => seen.push(e));
    const request = { service: 'arm' as const, method: 'PUT', path: '/subscriptions/s/x/containerGroups/web', label: 'containerGroups/web' };
    sink({ type: 'throttled', ...request, status: 429, attempt: 1, delayMs: 4000, address: 'ContainerGroup/web' });
    sink({ type: 'request_answered', ...request, status: 429, attempt: 1, address: 'ContainerGroup/web' });
    sink({ type: 'request_retried', ...request, attempt: 2, delayMs: 800 });
    expect(seen).toEqual([
      { type: 'throttle', service: 'arm', method: 'PUT', path: request.path, attempt: 1, status: 429, delayMs: 4000, address: 'ContainerGroup/web' },
      { type: 'retry', service: 'arm', method: 'PUT', path: request.path, attempt: 2, status: null, delayMs: 800 },
    ]);
  });

  test('apply_summary counts interrupted apart from failed and skipped, and names it among the root causes', () => {
    const e = applySummaryEvent(
      [
        { address: 'Thing/a', action: 'create', status: 'interrupted', error: 'x: interrupted' },
        { address: 'Thing/b', action: 'create', status: 'skipped', rootCause: 'Thing/a' },
        { address: 'Thing/c', action: 'create', status: 'done' },
      ],
      'Apply incomplete: …',
    );
    expect(e).toMatchObject({
      status: 'incomplete',
      created: 1,
      failed: 0,
      interrupted: 1,
      skipped: 1,
      rootCauses: [{ address: 'Thing/a', error: 'x: interrupted' }],
    });
  });

  test('apply_summary counts as failed a step that waited for an earlier write and saw it end Failed (not a job of unknown outcome)', () => {
    const e = applySummaryEvent(
      [
        { address: 'Thing/a', action: 'no-op', status: 'failed', error: 'the operation ended Failed', followsEarlierWrite: true },
        { address: 'Job/j', action: 'no-op', status: 'failed', error: 'the outcome of revision r1 is unknown' },
        { address: 'Thing/b', action: 'create', status: 'skipped', rootCause: 'Thing/a' },
      ],
      'Apply incomplete: …',
    );
    expect(e).toMatchObject({ status: 'incomplete', failed: 1, skipped: 1 });
  });

  test('apply_summary says incomplete, as the closing line does, when a job of unknown outcome holds back its dependents', () => {
    const outcomes = [
      { address: 'Job/j', action: 'no-op', status: 'failed', error: 'the outcome of revision r1 is unknown' },
      { address: 'Job/k', action: 'run', status: 'skipped', rootCause: 'Job/j' },
      { address: 'Thing/n', action: 'no-op', status: 'skipped', rootCause: 'Job/j' },
    ] as const;
    const line = applySummary(outcomes);
    expect(line.split('\n').pop()).toMatch(/^Apply incomplete: .*; 2 skipped\.$/);
    expect(applySummaryEvent(outcomes, line)).toMatchObject({ status: 'incomplete', failed: 0, skipped: 2, rootCauses: [{ address: 'Job/j' }] });
  });
});

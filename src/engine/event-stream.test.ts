// The one event stream: notice lines, fan-out, filters, and the transport's waits as typed events.
import { describe, expect, it } from 'vitest';
import { fanOut, noticeLine, noticeSink, only, recordingSink, type MoorEvent } from '../core/events.js';
import { transportMoorEvent } from '../providers/transport-events.js';

describe('event stream', () => {
  it('notice lines: a notice as it is, a stale lock taken over as the line users know; step events have none', () => {
    const lines: string[] = [];
    const sink = noticeSink((l) => lines.push(l));
    sink({ type: 'notice', message: 'moor: using the local cloud' });
    sink({ type: 'lock_taken_over', holder: 'bob@here (pid 12, apply)' });
    sink({ type: 'step_started', address: 'Thing/a', action: 'create' });
    expect(lines).toEqual(['moor: using the local cloud', 'moor: took over a stale state lock of bob@here (pid 12, apply) (that process is no longer running)']);
    expect(noticeLine({ type: 'progress', address: 'Thing/a', message: 'half way' })).toBeUndefined();
  });

  it('notice lines can leave out the long retry waits another sink already shows as lines (plain progress); poll waits still show', () => {
    const lines: string[] = [];
    const sink = noticeSink((l) => lines.push(l), { except: 'retry' });
    sink({ type: 'notice', message: 'moor: throttled by arm, waiting 40 s before sending GET containerGroups/web again (attempt 2)', wait: 'retry' });
    sink({ type: 'notice', message: 'moor: PUT containerGroups/web is still running on arm, waiting 20 s before checking again', wait: 'poll' });
    sink({ type: 'notice', message: 'moor: using the local cloud' });
    expect(lines).toEqual(['moor: PUT containerGroups/web is still running on arm, waiting 20 s before checking again', 'moor: using the local cloud']);
  });

  it('fans out to every sink and filters by type', () => {
    const a = recordingSink();
    const b = recordingSink();
    const sink = fanOut(a.sink, undefined, only(['notice'], b.sink));
    const events: MoorEvent[] = [{ type: 'notice', message: 'x' }, { type: 'planned', address: 'Thing/a', action: 'create' }];
    events.forEach(sink);
    expect(a.events).toEqual(events);
    expect(b.events).toEqual([events[0]]);
  });

  it('transport waits become typed events: a 429 is throttled, another status a retry, a poll a poll wait; answers none', () => {
    const base = { service: 'arm' as const, method: 'GET', path: '/x', label: 'x' };
    expect(transportMoorEvent({ ...base, type: 'retry', status: 429, attempt: 1, delayMs: 5000 })).toEqual({ type: 'throttled', ...base, status: 429, attempt: 1, delayMs: 5000 });
    expect(transportMoorEvent({ ...base, type: 'retry', status: 503, attempt: 2, delayMs: 800 })).toMatchObject({ type: 'request_retried', status: 503 });
    expect(transportMoorEvent({ ...base, type: 'retry', attempt: 1, delayMs: 800 })).toMatchObject({ type: 'request_retried' });
    expect(transportMoorEvent({ ...base, type: 'poll', delayMs: 2000 })).toMatchObject({ type: 'poll_wait', delayMs: 2000 });
    expect(transportMoorEvent({ ...base, type: 'request', status: 200, attempt: 1 })).toBeUndefined();
  });
});

// The one event stream: notice lines, fan-out, filters, and the notice lines of the transport's long waits.
import { describe, expect, it } from 'vitest';
import { fanOut, noticeLine, noticeSink, only, recordingSink, type MoorEvent } from '../core/events.js';
import { withWaitNotices } from './transport-settings.js';

describe('event stream', () => {
  it('notice lines: a notice as it is, a stale lock taken over as the line users know; step events have none', () => {
    const lines: string[] = [];
    const sink = noticeSink((l) => lines.push(l));
    sink({ type: 'notice', message: 'moor: using the local cloud' });
    sink({ type: 'lock_taken_over', holder: 'bob@here (pid 12, apply)' });
    sink({ type: 'step_started', address: 'Thing/a', action: 'create' });
    expect(lines).toEqual([
      'moor: using the local cloud',
      'moor: took over a stale state lock of bob@here (pid 12, apply) (that process is no longer running)',
    ]);
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
    const events: MoorEvent[] = [
      { type: 'notice', message: 'x' },
      { type: 'planned', address: 'Thing/a', action: 'create' },
    ];
    events.forEach(sink);
    expect(a.events).toEqual(events);
    expect(b.events).toEqual([events[0]]);
  });

  it('a long wait of the transport comes after a notice line saying what moor waits for; short waits and answers pass alone', () => {
    const { sink, events } = recordingSink();
    const withNotices = withWaitNotices(sink);
    const base = { service: 'arm' as const, method: 'PUT', path: '/x', label: 'containerGroups/web', address: 'ContainerGroup/web' };
    const throttled: MoorEvent = { type: 'throttled', ...base, status: 429, attempt: 1, delayMs: 40_000 };
    const poll: MoorEvent = { type: 'poll_wait', ...base, delayMs: 20_000 };
    const short: MoorEvent = { type: 'request_retried', ...base, status: 503, attempt: 1, delayMs: 800 };
    const answered: MoorEvent = { type: 'request_answered', ...base, status: 200, attempt: 2 };
    [throttled, poll, short, answered].forEach(withNotices);
    expect(events).toEqual([
      { type: 'notice', message: 'moor: throttled by arm, waiting 40 s before sending PUT containerGroups/web again (attempt 2)', wait: 'retry' },
      throttled,
      { type: 'notice', message: 'moor: PUT containerGroups/web is still running on arm, waiting 20 s before checking again', wait: 'poll' },
      poll,
      short,
      answered,
    ]);
  });
});

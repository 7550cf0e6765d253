// Apply's progress: the terminal's status line (in flight, waiting on the service, throttling) and the plain lines of CI.
import { describe, expect, test } from 'vitest';
import { plainProgress, statusLine, stepTitle, terminalProgress } from './progress.js';
import { shortPath, waitPhrase } from './wait-line.js';
import { memoryIo } from '../../test/support/memory-io.js';

const idle = { inFlight: 0, queued: 0, busySteps: 0, throttledMs: 0, answers: 0, throttled: 0 };

describe('statusLine', () => {
  test('steps with no request out are waiting on the service', () => {
    expect(statusLine(12, { ...idle, inFlight: 3, queued: 1, busySteps: 4 })).toBe('12 in flight (3 requests sent, 1 queued) · 8 waiting on the service');
  });

  test('says when moor is throttled and for how long, then how many requests were', () => {
    expect(statusLine(2, { ...idle, busySteps: 2, throttledMs: 2500, throttled: 1 })).toBe(
      '2 in flight (0 requests sent, 0 queued) · 0 waiting on the service · throttled by the service for 3 s more',
    );
    expect(statusLine(0, { ...idle, throttled: 4 })).toContain('4 throttled request(s) so far');
  });
});

describe('plain progress', () => {
  test('a skipped step names its root cause without claiming it failed (its outcome may be unknown)', () => {
    const lines: string[] = [];
    const p = plainProgress((l) => lines.push(l));
    p.sink({ type: 'step_finished', outcome: { address: 'DatabaseRefresh/r', action: 'run', status: 'skipped', rootCause: 'DatabaseExport/e' } });
    p.sink({ type: 'step_finished', outcome: { address: 'AuthContext/c1', action: 'create', status: 'skipped', rootCause: 'interrupted' } });
    expect(lines).toEqual(['DatabaseRefresh/r: skipped (DatabaseExport/e did not succeed)', 'AuthContext/c1: skipped (interrupted)']);
  });

  const armPath = '/subscriptions/0000-sub/resourceGroups/rg-web/providers/Vendor.ContainerInstance/containerGroups/web';

  test('one line per throttle and per retry, path shortened and without its query string; none for poll waits', () => {
    const lines: string[] = [];
    const p = plainProgress((l) => lines.push(l));
    p.sink({ type: 'throttled', service: 'arm', method: 'PUT', path: armPath, label: 'containerGroups/web', status: 429, attempt: 1, delayMs: 4000 });
    p.sink({ type: 'request_retried', service: 'fabric', method: 'GET', path: '/v1/workspaces', label: 'workspaces', status: 503, attempt: 2, delayMs: 800 });
    p.sink({ type: 'request_retried', service: 'lcs', method: 'POST', path: '/a/b', label: 'b', attempt: 1, delayMs: 1250 });
    p.sink({ type: 'poll_wait', service: 'arm', method: 'GET', path: armPath, label: 'containerGroups/web', delayMs: 2000 });
    expect(lines).toEqual([
      'arm: throttled (429) on PUT /subscriptions/…/containerGroups/web, retrying in 4.0 s',
      'fabric: answered 503 to GET /v1/workspaces, retrying in 0.8 s',
      'lcs: no answer to POST /a/b, retrying in 1.3 s',
    ]);
  });

  test('an interrupted step says how long it ran and that its operation goes on at the service', () => {
    const lines: string[] = [];
    const p = plainProgress((l) => lines.push(l));
    p.sink({ type: 'step_started', address: 'ContainerGroup/web', action: 'create' });
    p.sink({
      type: 'step_finished',
      outcome: { address: 'ContainerGroup/web', action: 'create', status: 'interrupted', error: 'containerGroups/web: interrupted while waiting' },
    });
    expect(lines[0]).toBe('ContainerGroup/web: creating...');
    expect(lines[1]).toMatch(/^ContainerGroup\/web: interrupted after \d+\.\ds \(what it sent goes on at the service; the next plan reads where it got to\)$/);
  });

  test('an interrupted step that had sent no change (it only read or waited) does not claim that what it sent goes on', () => {
    const lines: string[] = [];
    const p = plainProgress((l) => lines.push(l));
    p.sink({ type: 'step_started', address: 'ContainerGroup/web', action: 'update' });
    p.sink({
      type: 'step_finished',
      outcome: {
        address: 'ContainerGroup/web',
        action: 'update',
        status: 'interrupted',
        error: 'containerGroups/web: interrupted while waiting',
        sentNoChange: true,
      },
    });
    expect(lines[1]).toMatch(/^ContainerGroup\/web: interrupted after \d+\.\ds \(it had sent no change; the next plan reads where things got to\)$/);
  });

  test('a no-op waiting for an earlier write at the service has its lines; other no-ops have none', () => {
    const lines: string[] = [];
    const p = plainProgress((l) => lines.push(l));
    p.sink({ type: 'step_finished', outcome: { address: 'ContainerGroup/quiet', action: 'no-op', status: 'done' } });
    p.sink({ type: 'step_started', address: 'ContainerGroup/g', action: 'no-op' });
    p.sink({ type: 'step_finished', outcome: { address: 'ContainerGroup/g', action: 'no-op', status: 'done' } });
    expect(lines[0]).toBe('ContainerGroup/g: waiting for the service to finish its earlier write...');
    expect(lines[1]).toMatch(/^ContainerGroup\/g: finished at the service after \d+\.\ds$/);
    expect(lines).toHaveLength(2);
  });

  test('a short path stays as it is', () => {
    expect(shortPath('/v1/workspaces/w1/items')).toBe('/v1/workspaces/w1/items');
  });
});

describe('status line', () => {
  test('shows the retry or throttle being waited out', () => {
    expect(statusLine(1, { ...idle, busySteps: 1 }, 'arm: throttled (429) on PUT /x, retrying in 4.0 s')).toBe(
      '1 in flight (0 requests sent, 0 queued) · 0 waiting on the service · arm: throttled (429) on PUT /x, retrying in 4.0 s',
    );
  });
});

describe("a step's line on the terminal", () => {
  const group = {
    service: 'arm' as const,
    method: 'PUT',
    path: '/subscriptions/s/x/containerGroups/web',
    label: 'containerGroups/web',
    address: 'ContainerGroup/web',
  };

  test('shows the throttle or retry the step waits out, in whole seconds, after what it is doing', () => {
    expect(stepTitle('ContainerGroup/web', 'creating', waitPhrase({ type: 'throttled', ...group, status: 429, attempt: 1, delayMs: 4000 }))).toBe(
      'ContainerGroup/web: creating (throttled by arm, retrying in 4 s)',
    );
    expect(stepTitle('ContainerGroup/web', 'creating', waitPhrase({ type: 'request_retried', ...group, status: 503, attempt: 2, delayMs: 800 }))).toBe(
      'ContainerGroup/web: creating (arm answered 503, retrying in 1 s)',
    );
    expect(stepTitle('ContainerGroup/web', 'waiting for the group to run', waitPhrase({ type: 'request_retried', ...group, attempt: 1, delayMs: 2100 }))).toBe(
      'ContainerGroup/web: waiting for the group to run (no answer from arm, retrying in 3 s)',
    );
  });

  test('is what the step is doing alone when it waits for nothing', () => {
    expect(stepTitle('ContainerGroup/web', 'creating')).toBe('ContainerGroup/web: creating');
  });
});

describe('terminal progress', () => {
  test('leaves Ctrl-C to apply: listr2 adds no SIGINT listener (its own exits 127 at once, dropping the interrupted steps and the summary)', async () => {
    const before = process.listenerCount('SIGINT');
    const change = { address: 'AuthContext/c1', kind: 'AuthContext', action: 'create' as const, fields: [], patch: [], drift: false, destructive: false };
    const p = await terminalProgress(memoryIo({ tty: true }), [change]);
    expect(process.listenerCount('SIGINT')).toBe(before);
    p.sink({ type: 'step_finished', outcome: { address: 'AuthContext/c1', action: 'create', status: 'done' } });
    await p.done();
  });
});

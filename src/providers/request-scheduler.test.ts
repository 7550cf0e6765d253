import { describe, expect, test } from 'vitest';
import { RequestScheduler, type Answer, type SchedulerClock } from './request-scheduler.js';
import { NotStartedError, WriteNotSentError } from './request-context.js';
import { newRequestContext, type RequestContext } from '../core/request-context.js';
import { isInterruption } from '../core/interrupted.js';

/** A clock that moves only when the test says so. */
function fakeClock(): SchedulerClock & { advance(ms: number): Promise<void> } {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimer(ms, fn) {
      const t = { at: now + ms, fn };
      timers.push(t);
      return () => {
        timers = timers.filter((x) => x !== t);
      };
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers
          .filter((t) => t.at <= end)
          .sort((a, b) => a.at - b.at)
          .at(0);
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
        await flush();
      }
      now = end;
      await flush();
    },
  };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

/** Answers one request at a time (each the one just sent), once all have ended: the order they were sent in. */
async function answeredInTurn(h: ReturnType<typeof harness>, turn: readonly string[], requests: readonly Promise<unknown>[]): Promise<string[]> {
  for (const n of turn) {
    h.answer(n);
    await flush();
  }
  await Promise.all(requests);
  return h.names();
}

/** Requests whose answers the test hands out one by one. */
function harness(concurrency: number) {
  const clock = fakeClock();
  const scheduler = new RequestScheduler({ concurrency, clock });
  const sent: { name: string; at: number; answer: (a: Answer) => void }[] = [];
  const request = (name: string, url = 'http://x/subscriptions/a/x', method = 'GET', service = 'arm', ctx?: RequestContext) =>
    scheduler.run(service, method, new URL(url), () => new Promise<Answer>((answer) => sent.push({ name, at: clock.now(), answer })), ctx);
  const requestOf = (ctx: RequestContext, name: string) => request(name, undefined, undefined, undefined, ctx);
  const answer = (name: string, status = 200, headers: Record<string, string> = {}) => {
    const i = sent.findIndex((s) => s.name === name);
    sent[i].answer({ status, headers: new Headers(headers) });
  };
  return { clock, scheduler, sent, request, requestOf, answer, names: () => sent.map((s) => s.name) };
}

describe('request scheduler', () => {
  test('only requests in flight count: a service never has more than its limit out at once', async () => {
    const h = harness(2);
    const all = ['a', 'b', 'c', 'd', 'e'].map((n) => h.request(n));
    await flush();
    expect(h.names()).toEqual(['a', 'b']);
    h.answer('a');
    await flush();
    expect(h.names()).toEqual(['a', 'b', 'c']);
    for (const n of ['b', 'c']) h.answer(n);
    await flush();
    for (const n of ['d', 'e']) h.answer(n);
    await Promise.all(all);
    expect(h.scheduler.stats()).toMatchObject({ inFlight: 0, queued: 0, answers: 5 });
  });

  test("a 429's Retry-After pauses its whole bucket, not another subscription's", async () => {
    const h = harness(4);
    const first = h.request('a1');
    await flush();
    h.answer('a1', 429, { 'retry-after': '3' });
    await first;
    const same = h.request('a2', 'http://x/subscriptions/a/y');
    const other = h.request('b1', 'http://x/subscriptions/b/y');
    await flush();
    expect(h.names()).toEqual(['a1', 'b1']);
    expect(h.scheduler.stats().throttledMs).toBe(3000);
    await h.clock.advance(2999);
    expect(h.names()).toEqual(['a1', 'b1']);
    await h.clock.advance(1);
    expect(h.names()).toEqual(['a1', 'b1', 'a2']);
    expect(h.sent[2].at).toBe(3000);
    h.answer('a2');
    h.answer('b1');
    await Promise.all([same, other]);
  });

  test('AIMD: a 429 halves the requests in flight, each success adds back 1/limit', async () => {
    const h = harness(8);
    const p = h.request('t');
    await flush();
    h.answer('t', 429, { 'retry-after': '1' });
    await p;
    expect(h.scheduler.limitOf('arm')).toBe(4);
    await h.clock.advance(1000);
    const ok = h.request('ok');
    await flush();
    h.answer('ok');
    await ok;
    expect(h.scheduler.limitOf('arm')).toBeCloseTo(4.25);
    // Eight waiting requests: only four go out while the limit is below five.
    const many = Array.from({ length: 8 }, (_, i) => h.request(`m${i}`));
    await flush();
    expect(h.sent.filter((s) => s.name.startsWith('m'))).toHaveLength(4);
    for (let i = 0; i < 8; i++) {
      const open = h.sent.find((s) => s.name === `m${i}`);
      if (open) h.answer(`m${i}`);
      await flush();
    }
    for (const s of h.sent.filter((x) => x.name.startsWith('m'))) s.answer({ status: 200, headers: new Headers() });
    await Promise.all(many);
    expect(h.scheduler.limitOf('arm')).toBeLessThanOrEqual(8);
  });

  test('pacing: once x-ms-ratelimit-remaining runs low, requests are spaced at the refill rate', async () => {
    const h = harness(10);
    // The bucket said 100 at most, so it refills about 10 per second: one request every 100 ms once low.
    const warm = h.request('w');
    await flush();
    h.answer('w', 200, { 'x-ms-ratelimit-remaining-subscription-reads': '100' });
    await warm;
    const low = h.request('l');
    await flush();
    h.answer('l', 200, { 'x-ms-ratelimit-remaining-subscription-reads': '1' });
    await low;
    const paced = [h.request('p1'), h.request('p2'), h.request('p3')];
    await flush();
    expect(h.names()).toEqual(['w', 'l', 'p1']);
    await h.clock.advance(99);
    expect(h.names()).toEqual(['w', 'l', 'p1']);
    await h.clock.advance(1);
    expect(h.names()).toEqual(['w', 'l', 'p1', 'p2']);
    await h.clock.advance(100);
    expect(h.sent.map((s) => s.at)).toEqual([0, 0, 0, 100, 200]);
    // Writes have their own bucket class: not held by the reads' pacing.
    const write = h.request('put', 'http://x/subscriptions/a/x', 'PUT');
    await flush();
    expect(h.names()).toContain('put');
    for (const s of h.sent.slice(2)) s.answer({ status: 200, headers: new Headers() });
    await Promise.all([...paced, write]);
  });

  test('critical path first: waiting requests start by their step priority, then in arrival order', async () => {
    const h = harness(1);
    const blocker = h.request('blocker');
    await flush();
    const run = (name: string, priority: number) => h.requestOf(newRequestContext(priority), name);
    const waiting = [run('leaf-1', 1), run('leaf-2', 1), run('chain', 20), run('mid', 5)];
    await flush();
    expect(await answeredInTurn(h, ['blocker', 'chain', 'mid', 'leaf-1', 'leaf-2'], [blocker, ...waiting])).toEqual([
      'blocker',
      'chain',
      'mid',
      'leaf-1',
      'leaf-2',
    ]);
  });

  test("a listing's next page goes before new requests of the same priority, across subscriptions: listings end in the order they began", async () => {
    const h = harness(1);
    const blocker = h.request('blocker');
    await flush();
    const page = (name: string, sub: string, continues: boolean) =>
      h.scheduler.run(
        'arm',
        'GET',
        new URL(`http://x/subscriptions/${sub}/x`),
        () => new Promise<Answer>((answer) => h.sent.push({ name, at: h.clock.now(), answer })),
        undefined,
        continues,
      );
    const waiting = [
      page('list-b-page-1', 'b', false),
      page('list-c-page-1', 'c', false),
      page('list-a-page-2', 'a', true),
      h.requestOf(newRequestContext(5), 'urgent'),
    ];
    await flush();
    expect(await answeredInTurn(h, ['blocker', 'urgent', 'list-a-page-2', 'list-b-page-1', 'list-c-page-1'], [blocker, ...waiting])).toEqual([
      'blocker',
      'urgent',
      'list-a-page-2',
      'list-b-page-1',
      'list-c-page-1',
    ]);
  });

  test('interrupted: a step that has sent nothing sends nothing; a started step finishes', async () => {
    const h = harness(1);
    const controller = new AbortController();
    const started = newRequestContext(1, controller.signal);
    const waiting = newRequestContext(1, controller.signal);
    const first = h.requestOf(started, 'started-1');
    const queued = h.requestOf(waiting, 'never');
    await flush();
    controller.abort();
    await expect(queued).rejects.toBeInstanceOf(NotStartedError);
    h.answer('started-1');
    await first;
    const second = h.requestOf(started, 'started-2');
    await flush();
    h.answer('started-2');
    await second;
    expect(h.names()).toEqual(['started-1', 'started-2']);
    expect(waiting.started).toBe(false);
  });

  test('a step has sent a change once a write or delete went out and was not refused with a 4xx; reads and refused writes are none', async () => {
    const h = harness(2);
    const step = newRequestContext(1);
    const read = h.request('read', undefined, 'GET', 'arm', step);
    await flush();
    h.answer('read');
    await read;
    expect(step.sentChange).toBe(false);
    const refused = h.request('refused', undefined, 'PUT', 'arm', step);
    await flush();
    h.answer('refused', 409);
    await refused;
    expect(step.sentChange).toBe(false);
    const write = h.request('write', undefined, 'PUT', 'arm', step);
    await flush();
    h.answer('write', 201);
    await write;
    expect(step.sentChange).toBe(true);
  });

  test("interrupted: a started step's write waiting out a throttling pause is not sent; its reads still go", async () => {
    const h = harness(4);
    const controller = new AbortController();
    const step = newRequestContext(1, controller.signal);
    const url = 'http://x/subscriptions/a/containerGroups/web';
    const first = h.request('put-1', url, 'PUT', 'arm', step);
    await flush();
    h.answer('put-1', 429, { 'retry-after': '60' });
    await first;
    // The retry waits for the bucket's minute-long pause; Ctrl-C comes meanwhile.
    const retry = h.request('put-2', url, 'PUT', 'arm', step);
    await flush();
    controller.abort();
    const refused = await retry.catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WriteNotSentError);
    expect(isInterruption(refused)).toBe(true);
    expect((refused as Error).message).toContain('PUT /subscriptions/a/containerGroups/web');
    // A write asked for after the interruption is refused at once too; a read waits its turn and goes.
    await expect(h.request('put-3', url, 'PUT', 'arm', step)).rejects.toBeInstanceOf(WriteNotSentError);
    const read = h.request('get', url, 'GET', 'arm', step);
    await h.clock.advance(60_000);
    h.answer('get');
    await read;
    expect(h.names()).toEqual(['put-1', 'get']);
    expect(h.scheduler.stats()).toMatchObject({ queued: 0, inFlight: 0 });
  });

  test('many steps waiting on one interruption signal: all refused on abort, one listener (no leak warning)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const h = harness(1);
      const blocker = h.request('blocker');
      const controller = new AbortController();
      const queued = Array.from({ length: 30 }, (_, i) => h.requestOf(newRequestContext(1, controller.signal), `q${i}`));
      await flush();
      controller.abort();
      const results = await Promise.allSettled(queued);
      expect(results.every((r) => r.status === 'rejected' && r.reason instanceof NotStartedError)).toBe(true);
      h.answer('blocker');
      await blocker;
      await flush();
      expect(h.names()).toEqual(['blocker']);
      expect(h.scheduler.stats()).toMatchObject({ queued: 0, inFlight: 0 });
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

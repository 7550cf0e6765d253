// The dashboard's live stream: what the watch loop and a stack's engine events become for open pages.
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { LiveFeed, type EventClient } from './live-feed.js';

/** A response that keeps what is written to it and can be closed like a page going away. */
function fakeResponse(): { res: EventClient; written: string[]; close(): void } {
  const emitter = new EventEmitter();
  const written: string[] = [];
  const res: EventClient = {
    openStream: () => undefined,
    write: (chunk: string) => {
      written.push(chunk);
      return true;
    },
    onClose: (listener) => {
      emitter.on('close', listener);
    },
  };
  return { res, written, close: () => emitter.emit('close') };
}

const messages = (written: string[]) => written.filter((w) => w.startsWith('event: ')).map((w) => JSON.parse(w.split('\ndata: ')[1]));

describe('LiveFeed', () => {
  test("tells open pages of cycles, apply's steps and throttled requests, naming the stack", () => {
    const feed = new LiveFeed();
    const page = fakeResponse();
    feed.open(page.res);
    const events = feed.engineEvents('prod');
    feed.cycle('prod', 'drifted');
    events({ type: 'step_started', address: 'AuthContext/c1', action: 'update' });
    events({ type: 'step_finished', outcome: { address: 'AuthContext/c1', action: 'update', status: 'done' } });
    events({ type: 'request_answered', service: 'graph', method: 'GET', path: '/x', label: 'read', status: 429, attempt: 1 });
    events({ type: 'request_answered', service: 'graph', method: 'GET', path: '/x', label: 'read', status: 200, attempt: 2 });
    expect(messages(page.written)).toEqual([
      { type: 'cycle', stack: 'prod', result: 'drifted' },
      { type: 'step', stack: 'prod', address: 'AuthContext/c1', phase: 'started' },
      { type: 'step', stack: 'prod', address: 'AuthContext/c1', phase: 'finished', status: 'done' },
      { type: 'throttled', stack: 'prod', service: 'graph' },
    ]);
  });

  test('forgets a page that went away; the manifests without stacks are stack null', () => {
    const feed = new LiveFeed();
    const gone = fakeResponse();
    const open = fakeResponse();
    feed.open(gone.res);
    feed.open(open.res);
    gone.close();
    expect(feed.listeners).toBe(1);
    feed.cycle(undefined, 'in_sync');
    expect(messages(gone.written)).toEqual([]);
    expect(messages(open.written)).toEqual([{ type: 'cycle', stack: null, result: 'in_sync' }]);
    open.close();
  });
});

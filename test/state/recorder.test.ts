// StateRecorder: every change durable before its promise resolves, concurrent changes coalesced into few writes.
import { describe, expect, it } from 'vitest';
import { StateRecorder } from '../../src/engine/state/recorder.js';
import type { LockInfo, ResourceRecord, StateBackend, StateChange, StateDocument, WriteOptions } from '../../src/engine/state/types.js';

/** A backend in memory whose writes complete only when the test lets them. */
class GatedBackend implements StateBackend {
  readonly location = 'memory';
  disk: StateDocument = { version: 1, serial: 0, resources: {} };
  writes: { doc: StateDocument; options?: WriteOptions }[] = [];
  fail = false;
  private gates: (() => void)[] = [];
  auto = false;

  async read(): Promise<StateDocument> {
    return this.disk;
  }
  async write(next: Omit<StateDocument, 'serial'>, options?: WriteOptions): Promise<StateDocument> {
    const doc: StateDocument = JSON.parse(JSON.stringify({ ...next, serial: this.disk.serial + 1 }));
    if (!this.auto) await new Promise<void>((r) => this.gates.push(r));
    if (this.fail) throw new Error('disk full');
    this.disk = doc;
    this.writes.push({ doc, options });
    return doc;
  }
  /** Completes the oldest pending write. */
  async release(): Promise<void> {
    while (this.gates.length === 0) await new Promise((r) => setImmediate(r));
    this.gates.shift()!();
    await new Promise((r) => setImmediate(r));
  }
  get pending(): number {
    return this.gates.length;
  }
  async lock(): Promise<LockInfo> {
    throw new Error('unused');
  }
  async unlock(): Promise<void> {
    // nothing held
  }
  async forceUnlock(): Promise<LockInfo | undefined> {
    return undefined;
  }
  async close(): Promise<void> {
    // nothing to close
  }
}

const rec = (name: string): ResourceRecord => ({ kind: 'ContainerGroup', name, lastApplied: { n: name }, updatedAt: '2026-11-21T12:00:00Z' });
const settled = (p: Promise<unknown>) => {
  const s = { done: false };
  p.then(
    () => {
      s.done = true;
    },
    () => {
      s.done = true;
    },
  );
  return s;
};

describe('StateRecorder', () => {
  it('resolves a put only once a write containing it is durable', async () => {
    const backend = new GatedBackend();
    const recorder = new StateRecorder(backend, backend.disk);
    const put = settled(recorder.put('ContainerGroup/a', rec('a')));
    await new Promise((r) => setImmediate(r));
    expect(put.done).toBe(false);
    await backend.release();
    expect(put.done).toBe(true);
    expect(backend.disk.resources['ContainerGroup/a']).toEqual(rec('a'));
    expect(recorder.current().serial).toBe(1);
  });

  it('coalesces changes made while a write is in flight into the next single write, losing none', async () => {
    const backend = new GatedBackend();
    const recorder = new StateRecorder(backend, backend.disk);
    const first = recorder.put('ContainerGroup/g0', rec('g0'));
    await new Promise((r) => setImmediate(r));
    const rest = Array.from({ length: 99 }, (_, i) => recorder.put(`ContainerGroup/g${i + 1}`, rec(`g${i + 1}`)));
    await backend.release();
    await first;
    expect(backend.pending).toBe(1);
    await backend.release();
    await Promise.all(rest);
    expect(backend.writes).toHaveLength(2);
    expect(Object.keys(backend.disk.resources)).toHaveLength(100);
    expect(backend.writes.every((w) => w.options?.compact)).toBe(true);
  });

  it('keeps every change of 1,000 concurrent callers with far fewer writes than changes', async () => {
    const backend = new GatedBackend();
    backend.auto = true;
    const recorder = new StateRecorder(backend, backend.disk);
    await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        // Callers finish at different moments, as resources of an apply do.
        for (let k = 0; k < i % 5; k++) await Promise.resolve();
        await recorder.put(`ContainerGroup/g${i}`, rec(`g${i}`));
        if (i % 10 === 0) await recorder.remove(`ContainerGroup/g${i}`);
      }),
    );
    await recorder.flush();
    expect(Object.keys(backend.disk.resources)).toHaveLength(900);
    expect(backend.writes.length).toBeLessThan(50);
    expect(recorder.current().resources).toEqual(backend.disk.resources);
  });

  it('records extras beside the resources', async () => {
    const backend = new GatedBackend();
    backend.auto = true;
    const recorder = new StateRecorder(backend, { version: 1, serial: 7, resources: { 'ContainerGroup/a': rec('a') }, extras: { old: 1 } });
    await recorder.putExtras('notify', { messageId: 'm1' });
    expect(backend.disk.extras).toEqual({ old: 1, notify: { messageId: 'm1' } });
    expect(backend.disk.resources['ContainerGroup/a']).toEqual(rec('a'));
  });

  it('rejects the changes of a failed write and carries them in the next write, which flush forces', async () => {
    const backend = new GatedBackend();
    backend.auto = true;
    backend.fail = true;
    const recorder = new StateRecorder(backend, backend.disk);
    await expect(recorder.put('ContainerGroup/a', rec('a'))).rejects.toThrow('disk full');
    backend.fail = false;
    await recorder.flush();
    expect(backend.disk.resources['ContainerGroup/a']).toEqual(rec('a'));
  });

  it('flush waits for a write in flight', async () => {
    const backend = new GatedBackend();
    const recorder = new StateRecorder(backend, backend.disk);
    void recorder.remove('ContainerGroup/none');
    const flushed = settled(recorder.flush());
    await new Promise((r) => setImmediate(r));
    expect(flushed.done).toBe(false);
    await backend.release();
    await new Promise((r) => setImmediate(r));
    expect(flushed.done).toBe(true);
  });

  it('hands a backend with appendChanges only the changes, in order, each batch once', async () => {
    const batches: StateChange[][] = [];
    let fail = 1;
    const backend = new GatedBackend();
    const appending: StateBackend = Object.assign(backend, {
      async appendChanges(changes: readonly StateChange[]): Promise<number> {
        await Promise.resolve();
        if (fail-- > 0) throw new Error('EIO');
        batches.push([...changes]);
        return batches.length;
      },
    });
    const recorder = new StateRecorder(appending, backend.disk);
    await expect(recorder.put('ContainerGroup/a', rec('a'))).rejects.toThrow('EIO');
    const later = [recorder.remove('ContainerGroup/a'), recorder.putExtras('k', 'v')];
    await Promise.all(later);
    await recorder.flush();
    // The failed change goes out again, ahead of the ones made after it.
    expect(batches.flat().map((c) => c.op)).toEqual(['put', 'remove', 'extras']);
    expect(backend.writes).toHaveLength(0);
    expect(recorder.current()).toMatchObject({ serial: batches.length, resources: {}, extras: { k: 'v' } });
  });
});

// Where notifications remember their message: state extras, written under a brief lock, skipped when another run holds it.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { FileStateBackend } from '../../src/engine/state/file-backend.js';
import { NOTIFY_EXTRAS_KEY, readThread, saveThread, type ThreadRecord } from '../../src/notify/notify-threads.js';
import type { ResourceRecord } from '../../src/engine/state/types.js';
import { noticeSink } from '../../src/core/events.js';

let backend: FileStateBackend;
beforeEach(async () => {
  backend = new FileStateBackend(join(await mkdtemp(join(tmpdir(), 'moor-notify-')), 'state.json'));
});

const record: ThreadRecord = { conversationId: '19:ops-alerts', activityId: '42', contentHash: 'h', run: 'drift', updatedAt: '2030-01-01T00:00:00.000Z' };
const resource: ResourceRecord = { kind: 'AuthContext', name: 'c7', id: 'c7', lastApplied: { displayName: 'x' }, updatedAt: '2030-01-01T00:00:00.000Z' };

describe('notification threads in state', () => {
  test('a stored record is read back for its stack only, and resources and other extras are kept', async () => {
    const lock = await backend.lock('seed');
    await backend.write({ version: 1, resources: { 'AuthContext/c7': resource }, extras: { other: 1 } });
    await backend.unlock(lock);
    const warnings: string[] = [];
    expect(await saveThread(backend, 'stack-a', record, { lockHeld: false, events: noticeSink((l) => warnings.push(l)) })).toBe(true);
    await saveThread(backend, 'stack-b', { ...record, activityId: '43' }, { lockHeld: false, events: noticeSink((l) => warnings.push(l)) });
    const doc = await backend.read();
    expect(readThread(doc, 'stack-a')).toEqual(record);
    expect(readThread(doc, 'stack-b')?.activityId).toBe('43');
    expect(readThread(doc, 'stack-c')).toBeUndefined();
    expect(doc.resources['AuthContext/c7']).toEqual(resource);
    expect(doc.extras?.other).toBe(1);
    expect(warnings).toEqual([]);
  });

  test('when another run holds the lock the record is not stored and the user is told, without failing', async () => {
    const other = await backend.lock('moor apply');
    const warnings: string[] = [];
    expect(await saveThread(backend, 'stack-a', record, { lockHeld: false, events: noticeSink((l) => warnings.push(l)) })).toBe(false);
    expect(warnings.join('\n')).toMatch(/locked by another run.*not stored/);
    await backend.unlock(other);
    expect((await backend.read()).extras?.[NOTIFY_EXTRAS_KEY]).toBeUndefined();
  });

  test('apply, which already holds the lock, writes without taking it again', async () => {
    const lock = await backend.lock('moor apply');
    expect(await saveThread(backend, 'stack-a', record, { lockHeld: true, events: () => undefined })).toBe(true);
    await backend.unlock(lock);
    expect(readThread(await backend.read(), 'stack-a')).toEqual(record);
  });

  test('a malformed record reads as none', () => {
    expect(readThread({ version: 1, serial: 1, resources: {}, extras: { [NOTIFY_EXTRAS_KEY]: { s: { activityId: 3 } } } }, 's')).toBeUndefined();
  });
});

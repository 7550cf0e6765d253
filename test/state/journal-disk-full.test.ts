// The journal on a full disk: a write that stores only part of its bytes fails the append (never
// passes for durable), leaves only complete entries behind, and a journal cut short stops the next read.
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { FileStateBackend } from '../../src/engine/state/file-backend.js';
import { StateRecorder } from '../../src/engine/state/recorder.js';
import type { ResourceRecord, StateChange } from '../../src/engine/state/types.js';
import { fillDisk, type FullDisk } from './fixtures/disk-full.mjs';

let path: string;
let disk: FullDisk | undefined;
let opened: FileStateBackend[] = [];
beforeEach(async () => {
  path = join(await mkdtemp(join(tmpdir(), 'moor-full-')), 'state.json');
});
afterEach(async () => {
  disk?.free();
  disk = undefined;
  await Promise.all(opened.map((b) => b.close()));
  opened = [];
});

function backendAt(p: string): FileStateBackend {
  const b = new FileStateBackend(p);
  opened.push(b);
  return b;
}

const rec = (name: string, pad = 0): ResourceRecord => ({
  kind: 'PushDataset',
  name,
  lastApplied: { name, pad: 'x'.repeat(pad) },
  updatedAt: '2026-11-21T12:00:00.000Z',
});
const put = (name: string, pad = 0): StateChange => ({ op: 'put', address: `PushDataset/${name}`, record: rec(name, pad) });

describe('an append on a disk that runs full', () => {
  it('fails when the file system stores only part of the line, and cuts the journal back to its complete entries', async () => {
    const backend = backendAt(path);
    await backend.lock('apply');
    await backend.appendChanges([put('a')]);
    const complete = (await stat(`${path}.journal`)).size;
    disk = await fillDisk(dirname(path), 40);
    const err = await backend.appendChanges([put('b', 200)]).catch((e: unknown) => e);
    expect(disk.shortWrites).toBe(1);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/cannot write .*state\.json\.journal: no space left on the device; the change is not recorded/);
    expect((await stat(`${path}.journal`)).size).toBe(complete);
    expect(Object.keys((await backendAt(path).read()).resources)).toEqual(['PushDataset/a']);
  });

  it('records again once there is space, and every change it acknowledged reads back', async () => {
    const backend = backendAt(path);
    await backend.lock('apply');
    await backend.appendChanges([put('a')]);
    disk = await fillDisk(dirname(path), 10);
    await expect(backend.appendChanges([put('b')])).rejects.toThrow(/no space left/);
    disk.free();
    await backend.appendChanges([put('c')]);
    expect(Object.keys((await backendAt(path).read()).resources)).toEqual(['PushDataset/a', 'PushDataset/c']);
  });

  it('a recorder over it rejects the put (the caller must not send its request) and writes it with the next batch', async () => {
    const backend = backendAt(path);
    await backend.lock('apply');
    const recorder = new StateRecorder(backend, await backend.read());
    disk = await fillDisk(dirname(path), 30);
    await expect(recorder.put('PushDataset/a', rec('a', 100))).rejects.toThrow(/no space left/);
    disk.free();
    await recorder.put('PushDataset/b', rec('b'));
    expect(Object.keys((await backendAt(path).read()).resources).sort()).toEqual(['PushDataset/a', 'PushDataset/b']);
  });
});

describe('a journal that ends in an incomplete entry', () => {
  it('stops the read with where it is cut and how to go on, and changes nothing', async () => {
    const line = JSON.stringify({ serial: 1, changes: [put('a')] }) + '\n';
    const torn = '{"serial":2,"changes":[{"op":"put","address":"PushDataset/sales","record":{"kind":"Pu';
    await writeFile(`${path}.journal`, line + torn);
    const err = await backendAt(path)
      .read()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).toContain('state.json.journal ends in an incomplete record at line 2 (it was recording PushDataset/sales)');
    expect(message).toContain(`truncate -s ${Buffer.byteLength(line)} `);
    expect(await readFile(`${path}.journal`, 'utf8')).toBe(line + torn);
  });

  it('stops the next run before it appends anything', async () => {
    await writeFile(`${path}.journal`, '{"serial":1,"chan');
    const backend = backendAt(path);
    await backend.lock('apply');
    await expect(backend.appendChanges([put('a')])).rejects.toThrow(/incomplete record at line 1/);
    expect(await readFile(`${path}.journal`, 'utf8')).toBe('{"serial":1,"chan');
  });
});

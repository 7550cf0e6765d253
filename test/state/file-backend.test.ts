// The file backend: missing, corrupt and written state; atomic replacement with a backup; file mode.
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { FileStateBackend } from '../../src/engine/state/file-backend.js';
import { openStateBackend } from '../../src/engine/state/open-backend.js';
import type { ResourceRecord, StateBackend } from '../../src/engine/state/types.js';
import { DEAD_PID } from './dead-pid.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'moor-state-'));
  path = join(dir, '.moor', 'state.json');
});

const record = (name: string): ResourceRecord => ({
  kind: 'ContainerGroup',
  name,
  id: `/subscriptions/s/resourceGroups/rg/providers/x/${name}`,
  lastApplied: { location: 'westeurope' },
  updatedAt: '2026-11-21T12:00:00.000Z',
});

describe('FileStateBackend.read', () => {
  it('reads a missing file as empty state with serial 0', async () => {
    expect(await new FileStateBackend(path).read()).toEqual({ version: 1, serial: 0, resources: {} });
  });

  it('reports corrupt JSON naming the file and its backup, and leaves the file as it was', async () => {
    const backend = new FileStateBackend(path, '.moor/state.json');
    await backend.write({ version: 1, resources: {} });
    await writeFile(path, '{"version":1,"serial":3,"resou');
    const err = await backend.read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/state file \.moor\/state\.json is corrupt/);
    expect((err as Error).message).toContain('.moor/state.json.backup');
    await expect(backend.write({ version: 1, resources: {} })).rejects.toBeInstanceOf(UserError);
    expect(await readFile(path, 'utf8')).toBe('{"version":1,"serial":3,"resou');
  });

  it.each([
    ['text that breaks off', '{"version":1,\n "serial":3,"resou', 'not valid JSON at line 2, column 19: the text ends early'],
    ['a token JSON does not know', '{"version":1,\n"serial": tru,\n"resources":{}}', "not valid JSON at line 2, column 11: unexpected 'tru'"],
    ['a trailing comma', '{"version":1,"serial":1,"resources":{},\n}', "not valid JSON at line 2, column 1: unexpected '}'"],
    ['no version field', '{"serial":1,"resources":{}}', 'no "version" field (this moor reads version 1)'],
  ])('says on one line where a document that is %s is wrong', async (_why, text, what) => {
    await writeFile(join(dir, 'state.json'), text);
    const err = await new FileStateBackend(join(dir, 'state.json'), 'state.json').read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).toContain(`state file state.json is corrupt: ${what}. moor will not overwrite it.`);
    expect(message).not.toMatch(/\n|undefined|position/);
  });

  it.each([
    ['an array', '[]'],
    ['a version that is not a whole number', '{"version":"2","serial":1,"resources":{}}'],
    ['a negative serial', '{"version":1,"serial":-1,"resources":{}}'],
    ['a record without lastApplied', '{"version":1,"serial":1,"resources":{"A/b":{"kind":"A","name":"b"}}}'],
  ])('rejects a document that is %s', async (_why, text) => {
    await writeFile(join(dir, 'state.json'), text);
    await expect(new FileStateBackend(join(dir, 'state.json')).read()).rejects.toThrow(/is corrupt/);
  });
});

describe('FileStateBackend.read of a state written by a newer moor', () => {
  // Deliberately changed: version 2 used to be reported as corrupt, with advice to copy the backup over it.
  it('says to upgrade moor and never suggests the backup', async () => {
    await writeFile(join(dir, 'state.json'), '{"version":2,"serial":1,"resources":{}}');
    await writeFile(join(dir, 'state.json.backup'), '{"version":1,"serial":0,"resources":{}}');
    const err = await new FileStateBackend(join(dir, 'state.json'), 'state.json').read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).toBe('state file state.json was written by a newer moor (state version 2; this moor reads version 1): upgrade moor');
    expect(message).not.toMatch(/backup|corrupt/);
  });
});

describe('FileStateBackend.write', () => {
  it('adds one to the serial with every write and reads back what it wrote', async () => {
    const backend = new FileStateBackend(path);
    const first = await backend.write({ version: 1, resources: { 'ContainerGroup/web': record('web') } });
    const second = await backend.write({ version: 1, resources: {}, extras: { note: 'x' } });
    expect([first.serial, second.serial]).toEqual([1, 2]);
    expect(await new FileStateBackend(path).read()).toEqual(second);
  });

  it('creates the file with mode 0600', async () => {
    await new FileStateBackend(path).write({ version: 1, resources: {} });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('keeps the previous version as state.json.backup', async () => {
    const backend = new FileStateBackend(path);
    await backend.write({ version: 1, resources: { 'ContainerGroup/a': record('a') } });
    await backend.write({ version: 1, resources: { 'ContainerGroup/b': record('b') } });
    const backup = JSON.parse(await readFile(`${path}.backup`, 'utf8'));
    expect(backup.serial).toBe(1);
    expect(Object.keys(backup.resources)).toEqual(['ContainerGroup/a']);
  });

  it('counts from the serial on disk when another backend wrote in between', async () => {
    await new FileStateBackend(path).write({ version: 1, resources: {} });
    const other = new FileStateBackend(path);
    await other.write({ version: 1, resources: {} });
    expect((await new FileStateBackend(path).write({ version: 1, resources: {} })).serial).toBe(3);
  });

  it('writes compact JSON when asked and pretty JSON otherwise', async () => {
    const backend = new FileStateBackend(path);
    await backend.write({ version: 1, resources: {} }, { compact: true });
    expect(await readFile(path, 'utf8')).not.toContain('\n');
    await backend.write({ version: 1, resources: {} });
    expect(await readFile(path, 'utf8')).toContain('\n  "serial": 2');
  });
});

describe('left-over temp files', () => {
  it('are swept when the lock is taken, but only those of writers that are gone', async () => {
    const backend = new FileStateBackend(path);
    await backend.write({ version: 1, resources: {} });
    await writeFile(join(dir, '.moor', `.state.json.${DEAD_PID}.abc123.tmp`), '{"torn');
    await writeFile(join(dir, '.moor', `.state.json.${process.pid}.def456.tmp`), '{"in progress');
    await backend.lock('apply');
    expect((await readdir(join(dir, '.moor'))).filter((n) => n.endsWith('.tmp'))).toEqual([`.state.json.${process.pid}.def456.tmp`]);
  });
});

describe('openStateBackend', () => {
  it('defaults to .moor/state.json under the working directory', () => {
    const backend = fileBackend(openStateBackend(undefined, dir));
    expect(backend.path).toBe(join(dir, '.moor/state.json'));
    expect(backend.location).toBe('.moor/state.json');
  });

  it('takes relative paths from the working directory and keeps absolute ones', () => {
    expect(fileBackend(openStateBackend('s/x.json', dir)).path).toBe(join(dir, 's/x.json'));
    expect(fileBackend(openStateBackend('/abs/x.json', dir)).path).toBe('/abs/x.json');
  });

  it('leaves postgres:// URLs to the PostgreSQL backend', () => {
    expect(openStateBackend('postgres://moor@db/moor', dir)).not.toBeInstanceOf(FileStateBackend);
  });
});

/** The backend opened, which must be the file backend. */
function fileBackend(backend: StateBackend): FileStateBackend {
  if (!(backend instanceof FileStateBackend)) throw new Error(`not a FileStateBackend: ${backend.constructor.name}`);
  return backend;
}

// State is checked on read as strictly as manifests: wrong types, a kind that does not match its
// address, an address with a line break are refused with where (file, address, field), never used.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { documentOfRow } from '../../src/engine/state/postgres-document.js';
import { parseState } from '../../src/engine/state/state-document.js';
import { FileStateBackend } from '../../src/engine/state/file-backend.js';

const good = { kind: 'ContainerGroup', name: 'web', id: '/subscriptions/x', lastApplied: {}, updatedAt: '2026-11-21T12:00:00.000Z' };

const CASES: [string, string, Record<string, unknown>, RegExp][] = [
  ['an id that is a number', 'ContainerGroup/web', { ...good, id: 123 }, /record "ContainerGroup\/web": "id" must be a string, not number 123/],
  [
    'a kind that does not match the address',
    'ContainerGroup/web',
    { ...good, kind: 'PushDataset' },
    /record "ContainerGroup\/web": kind "PushDataset" does not match its address/,
  ],
  [
    'an address with a line break',
    'ContainerGroup/web\n::error::x',
    { ...good, name: 'web\n::error::x' },
    /record "ContainerGroup\/web\\n::error::x": the address is not Kind\/name/,
  ],
  ['protect that is a string', 'ContainerGroup/web', { ...good, protect: 'yes' }, /"protect" must be true or false, not string "yes"/],
  [
    'a pending change of an unknown action',
    'ContainerGroup/web',
    { ...good, pending: { action: 'explode', since: 'now' } },
    /"pending" must be \{action: create\|update\|replace, since\}/,
  ],
  ['dependsOn that is not a list of addresses', 'ContainerGroup/web', { ...good, dependsOn: [1] }, /"dependsOn" must be a list of addresses/],
];

describe('a state record that moor did not write', () => {
  it.each(CASES)('refuses %s, naming the state file and the record', (_why, address, record, message) => {
    const text = JSON.stringify({ version: 1, serial: 1, resources: { [address]: record } });
    const err = (() => {
      try {
        parseState(text, '.moor/state.json');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/^state file \.moor\/state\.json is corrupt: /);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
  });

  it.each(CASES)('refuses %s in PostgreSQL state too', (_why, address, record, message) => {
    expect(() => documentOfRow({ serial: '1', version: 1, extras: null, resources: { [address]: record } }, 'postgres://db/moor')).toThrow(message);
  });

  it.each(CASES)('refuses %s in a journal line, naming the line', async (_why, address, record, message) => {
    const path = join(await mkdtemp(join(tmpdir(), 'moor-check-')), 'state.json');
    await writeFile(`${path}.journal`, JSON.stringify({ serial: 1, changes: [{ op: 'put', address, record }] }) + '\n');
    const err = await new FileStateBackend(path).read().catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/state\.json\.journal is corrupt at line 1: /);
    expect((err as Error).message).toMatch(message);
  });

  it('accepts a record as moor writes it', () => {
    expect(
      parseState(
        JSON.stringify({
          version: 1,
          serial: 1,
          resources: {
            'ContainerGroup/web': { ...good, protect: true, dependsOn: ['AuthContext/c1'], pending: { action: 'create', since: 'now' }, outputs: {} },
          },
        }),
        's',
      ).serial,
    ).toBe(1);
  });
});

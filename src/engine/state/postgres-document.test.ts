// The rows of a PostgreSQL workspace as a state document: what a newer moor wrote is told apart from damage.
import { describe, expect, it } from 'vitest';
import { documentOfRow } from './postgres-document.js';

const row = (version: number) => ({ serial: '3', version, extras: null, resources: {} });

describe('documentOfRow', () => {
  it('reads version 1', () => {
    expect(documentOfRow(row(1), 'postgres://db/moor (workspace default)')).toEqual({ version: 1, serial: 3, resources: {} });
  });

  it('says a newer moor wrote a higher version: upgrade moor, nothing to restore', () => {
    const read = () => documentOfRow(row(2), 'postgres://db/moor (workspace default)');
    expect(read).toThrow(
      'PostgreSQL state postgres://db/moor (workspace default) was written by a newer moor (state version 2; this moor reads version 1): upgrade moor',
    );
    expect(read).not.toThrow(/corrupt|restore|delete them/);
  });

  it('calls a version that is no version at all corrupt', () => {
    expect(() => documentOfRow(row(0), 'postgres://db/moor (workspace default)')).toThrow(/is corrupt: unknown state version 0/);
  });
});

import { describe, expect, it } from 'vitest';
import { AppendedChanges } from './appended-changes.js';
import { replay } from './journal.js';
import type { ResourceRecord, StateChange, StateDocument } from './types.js';

const rec = (name: string, tag: string): ResourceRecord => ({ kind: 'ContainerGroup', name, lastApplied: { tag }, updatedAt: tag });
const put = (name: string, tag: string): StateChange => ({ op: 'put', address: `ContainerGroup/${name}`, record: rec(name, tag) });
const remove = (name: string): StateChange => ({ op: 'remove', address: `ContainerGroup/${name}` });
const doc: StateDocument = { version: 1, serial: 3, resources: { 'ContainerGroup/a': rec('a', 'old'), 'ContainerGroup/b': rec('b', 'old') } };

/** The document and its bytes (key order included) after replaying `changes` once. */
const replayed = (changes: readonly StateChange[]) => JSON.stringify(replay(doc, [{ serial: 4, changes }]));

describe('the changes a file backend keeps for its fold', () => {
  it('keep one put per address where a put follows a put: an intent then its result', () => {
    const appended = new AppendedChanges();
    for (const c of [put('c', 'pending'), put('d', 'pending'), put('c', 'done'), put('d', 'done')]) appended.add(c);
    expect(appended.list()).toEqual([put('c', 'done'), put('d', 'done')]);
  });

  it('replay to the same document, in the same order, as every change replayed', () => {
    const changes = [
      put('c', 'pending'),
      put('a', 'pending'),
      remove('b'),
      put('c', 'done'),
      put('b', 'back'),
      put('a', 'done'),
      remove('c'),
      put('e', 'new'),
      put('c', 'again'),
      put('b', 'last'),
      { op: 'extras', key: 'k', value: 1 } as StateChange,
      put('e', 'done'),
    ];
    const appended = new AppendedChanges();
    for (const c of changes) appended.add(c);
    expect(appended.list().length).toBeLessThan(changes.length);
    expect(replayed(appended.list())).toBe(replayed(changes));
  });
});

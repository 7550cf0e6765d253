// Parsing state text: the backup is looked for only when the text is corrupt, to word the advice.
import { describe, expect, it } from 'vitest';
import { compactChunks, parseState } from './state-document.js';
import type { StateDocument } from './types.js';

describe('parseState', () => {
  it('does not ask whether a backup exists when the state is sound', () => {
    let asked = 0;
    const doc = parseState('{"version":1,"serial":2,"resources":{}}', 'state.json', () => {
      asked++;
      return true;
    });
    expect(doc.serial).toBe(2);
    expect(asked).toBe(0);
  });

  it('says there is no previous version when a corrupt state has no backup', () => {
    expect(() => parseState('{', 'state.json', () => false)).toThrow('There is no previous version (state.json.backup does not exist)');
  });

  it('points at the backup when a corrupt state has one', () => {
    expect(() => parseState('[]', 'state.json', () => true)).toThrow('The previous version is kept in state.json.backup');
  });
});

describe('compactChunks', () => {
  const record = (name: string) => ({ kind: 'ContainerGroup', name, lastApplied: { name, 'a"b': [1, null] }, updatedAt: 'now' });
  it.each<[string, StateDocument]>([
    ['no records', { version: 1, serial: 0, resources: {} }],
    ['records and extras', { version: 1, serial: 7, resources: { 'ContainerGroup/a': record('a'), 'ContainerGroup/b': record('b') }, extras: { k: { v: 1 } } }],
  ])('joined, they are the compact JSON of the document (%s)', (_, doc) => {
    expect([...compactChunks(doc)].join('')).toBe(JSON.stringify(doc));
  });

  it('takes the records when called, so a record put while the chunks are written is not half in', () => {
    const resources: Record<string, ReturnType<typeof record>> = { 'ContainerGroup/a': record('a') };
    const chunks = compactChunks({ version: 1, serial: 1, resources });
    resources['ContainerGroup/b'] = record('b');
    expect(JSON.parse([...chunks].join('')).resources).toEqual({ 'ContainerGroup/a': record('a') });
  });
});

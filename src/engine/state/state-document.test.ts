// Parsing state text: the backup is looked for only when the text is corrupt, to word the advice.
import { describe, expect, it } from 'vitest';
import { parseState } from './state-document.js';

describe('parseState', () => {
  it('does not ask whether a backup exists when the state is sound', () => {
    let asked = 0;
    const doc = parseState('{"version":1,"serial":2,"resources":{}}', 'state.json', () => { asked++; return true; });
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

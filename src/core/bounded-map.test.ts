import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.js';

describe('BoundedMap', () => {
  it('keeps what it made, and forgets everything when a new key would pass its bound', () => {
    const map = new BoundedMap<string, number>(2);
    let made = 0;
    const make = () => ++made;
    expect(map.getOrMake('a', make)).toBe(1);
    expect(map.getOrMake('a', make)).toBe(1);
    expect(map.getOrMake('b', make)).toBe(2);
    map.set('b', 20); // a key it has: no forgetting
    expect([...map.keys()]).toEqual(['a', 'b']);
    expect(map.getOrMake('c', make)).toBe(3);
    expect([...map.entries()]).toEqual([['c', 3]]);
  });
});

// The mass-delete guard of --prune: the wrong folder must not delete everything.
import { describe, expect, test } from 'vitest';
import { massDeleteRefusal } from './prune-guard.js';

describe('massDeleteRefusal', () => {
  test('no manifests found and something to delete: refused, naming the flag', () => {
    const d = massDeleteRefusal({ manifests: 0, inState: 4, kept: 0, deletes: 4 });
    expect(d?.severity).toBe('error');
    expect(d?.message).toBe(
      '--prune would delete 4 of the 4 resources in state, and no manifests were found; check the paths given, or pass --allow-mass-delete to delete them anyway',
    );
  });

  test('manifests naming fewer than half of state: refused; half or more: allowed', () => {
    expect(massDeleteRefusal({ manifests: 5, inState: 5, kept: 2, deletes: 3 })?.message).toContain('the manifests name only 2 of them');
    expect(massDeleteRefusal({ manifests: 2, inState: 4, kept: 2, deletes: 2 })).toBeUndefined();
    expect(massDeleteRefusal({ manifests: 9, inState: 2, kept: 1, deletes: 1 })).toBeUndefined();
  });

  test('--allow-mass-delete, or nothing to delete, lets it through', () => {
    expect(massDeleteRefusal({ manifests: 0, inState: 4, kept: 0, deletes: 4, allowMassDelete: true })).toBeUndefined();
    expect(massDeleteRefusal({ manifests: 0, inState: 4, kept: 0, deletes: 0 })).toBeUndefined();
  });
});

import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../core/json.js';
import { kindCatalog } from '../core/kind-catalog.js';
import { manifest } from '../engine/testing/fake-kinds.js';
import { compilePolicy } from './compile-policy.js';

/** No kinds: these rules read no field of `object`, so none is needed to check them. */
const NO_KINDS = kindCatalog([]);

/** A Policy document with this spec, as the loader gives it. */
const policyDocument = (spec: JsonObject) => manifest('Policy', 'p', spec);

describe('compilePolicy', () => {
  test('a rule whose expression is not a string is left to the schema: no CEL error about "[object Object]"', () => {
    const { policy, diagnostics } = compilePolicy(policyDocument({ rules: [{ expression: { a: 1 } }] }), NO_KINDS);
    expect(diagnostics).toEqual([]);
    expect(policy.rules).toEqual([]);
  });

  test('a string expression is still compiled and its syntax error reported at the rule', () => {
    const { policy, diagnostics } = compilePolicy(policyDocument({ rules: [{ expression: 'object.spec.(' }] }), NO_KINDS);
    expect(policy.rules).toEqual([]);
    expect(diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^spec\.rules\[0\]\.expression: /)]);
  });
});

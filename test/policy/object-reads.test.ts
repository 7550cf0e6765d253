// Rules see a manifest converted only where they read it: the parts they read are exactly as in
// the whole document, and a rule that takes `object` whole still sees all of it.
import { describe, expect, test } from 'vitest';
import { compileCel } from '../../src/policy/cel.js';
import { objectReads, prunedDocument, readTree } from '../../src/policy/object-reads.js';
import { group, policy, validateWithPolicies } from './helpers.js';

const readsOf = (expression: string) => {
  const compiled = compileCel(expression, 'bool');
  if (!compiled.ok) throw new Error(compiled.message);
  return objectReads(compiled.program.ast);
};

describe('what of object a rule reads', () => {
  test('member chains, bracketed keys and the receiver of a macro are read paths', () => {
    expect(readsOf("object.spec.location == 'x' && object['metadata'].name != '' && object.spec.tags.all(k, k != '')")).toEqual([
      ['spec', 'location'],
      ['metadata', 'name'],
      ['spec', 'tags'],
    ]);
  });

  test('object used whole, or behind a computed key, is read in full or from the last known key', () => {
    expect(readsOf('size(object) > 0')).toBe('all');
    expect(readsOf("object.spec[stack] == 'x'")).toEqual([['spec']]);
  });

  test('the pruned document keeps what is read (arrays whole) and drops the rest', () => {
    const doc = { metadata: { name: 'web' }, spec: { location: 'westeurope', containers: [{ a: 1 }], other: { deep: true } } };
    expect(prunedDocument(doc, readTree([['spec', 'containers', 0, 'a'], ['metadata'], ['spec', 'missing'], ['metadata', 'name']]))).toEqual({
      metadata: { name: 'web' },
      spec: { containers: [{ a: 1 }] },
    });
    expect(prunedDocument(doc, readTree('all'))).toBe(doc);
  });
});

describe('policies on pruned documents', () => {
  test('a rule over the whole object and a rule over one field both judge the full manifest', async () => {
    const rules = `  match: {kinds: [ContainerGroup]}
  rules:
    - expression: "size(object.spec) > 100"
      message: spec too small
    - expression: "has(object.spec.tags)"
      message: needs tags
      fieldPath: spec.tags
    - expression: "object.metadata.name == 'api'"
      messageExpression: "'named ' + object.metadata.name + ' in ' + object.spec.location"
`;
    const result = await validateWithPolicies({ 'app.yaml': group('web', { web: 'nginx:1.27' }), 'policy.yaml': policy('p', rules) });
    expect(result.diagnostics.map((d) => d.message).sort()).toEqual(['policy p: named web in westeurope', 'policy p: needs tags', 'policy p: spec too small']);
  });
});

// The JSON renderer: one moor-plan/1 document pipelines can rely on, with secrets masked.
import { describe, expect, it } from 'vitest';
import { renderPlanJson } from '../../src/engine/render/index.js';
import type { Plan } from '../../src/engine/plan/types.js';
import { representativePlan } from './sample-plans.js';

describe('renderPlanJson', () => {
  it('matches the golden document', async () => {
    await expect(renderPlanJson(representativePlan)).toMatchFileSnapshot('golden/plan.json');
  });

  it('is one JSON document with the contract fields', () => {
    const doc = JSON.parse(renderPlanJson(representativePlan));
    expect(doc.format).toBe('moor-plan/1');
    expect(doc.serial).toBe(7);
    expect(doc.summary).toEqual({ create: 1, update: 1, replace: 1, delete: 1, run: 1, noop: 4 });
    expect(doc.changes.map((c: { action: string }) => c.action)).toEqual(['create', 'update', 'replace', 'delete', 'run', 'no-op', 'no-op', 'no-op', 'no-op']);
    for (const c of doc.changes) {
      expect(Object.keys(c)).toEqual(expect.arrayContaining(['address', 'kind', 'action', 'patch', 'drift', 'destructive', 'fields']));
    }
    expect(doc.changes[4]).toMatchObject({
      address: 'DatabaseRefresh/uat',
      destructive: true,
      reason: 'revision changed from 3 to 4',
      reasonCode: 'revision-changed',
    });
    expect(doc.changes[7].check).toEqual({ passed: false, severity: 'error', message: "name 'web' is already taken (AlreadyExists)" });
    expect(doc.diagnostics[0]).toEqual({
      file: 'manifests/web.yaml',
      line: 14,
      col: 24,
      severity: 'warning',
      message: 'secureValue is a literal secret; use ${env:NAME} or ${file:path}',
      address: 'ContainerGroup/api',
      code: 'literal-secret',
    });
  });

  it('gives a create its after-values, names fields by element with a pointer beside, and marks unknowns', () => {
    const text = renderPlanJson(representativePlan);
    const doc = JSON.parse(text);
    expect(doc.changes[0].after).toMatchObject({ location: 'westeurope', tags: { upstream: { unknown: true } } });
    expect(doc.changes[0].fields[1]).toMatchObject({
      path: '/properties/containers[name=web]/properties/image',
      pointer: '/properties/containers/0/properties/image',
      after: 'nginx:1.27',
    });
    expect(doc.changes[1].fields.at(-1)).toEqual({
      path: '/tags/upstream',
      op: 'replace',
      before: 'old.example',
      unknown: true,
      cause: 'manifest',
      sensitive: false,
      forcesReplace: false,
    });
    expect(doc.changes[1].patch.at(-1)).toEqual({ op: 'replace', path: '/tags/upstream', unknown: true });
    expect(doc.changes[1].resent).toEqual(['/properties/containers[name=app]/properties/environmentVariables[name=API_KEY]/secureValue']);
    expect(text).not.toContain('known after apply');
  });

  it("masks the secret parts of a create's whole-document patch, not the whole document", () => {
    const leaky: Plan = {
      ...representativePlan,
      changes: [
        {
          address: 'ContainerGroup/x',
          kind: 'ContainerGroup',
          action: 'create',
          drift: false,
          destructive: false,
          fields: [
            {
              path: '/p[name=a]/secureValue',
              pointer: '/p/0/secureValue',
              op: 'add',
              after: '(sensitive)',
              cause: 'manifest',
              sensitive: true,
              forcesReplace: false,
            },
          ],
          patch: [{ op: 'add', path: '', value: { p: [{ name: 'a', secureValue: 'raw-s3cret' }], q: 'plain' } }],
        },
      ],
    };
    const doc = JSON.parse(renderPlanJson(leaky));
    expect(doc.changes[0].patch[0].value).toEqual({ p: [{ name: 'a', secureValue: '(sensitive)' }], q: 'plain' });
  });

  it('gives a diagnostic without location nulls, not missing keys', () => {
    const doc = JSON.parse(renderPlanJson({ ...representativePlan, diagnostics: [{ severity: 'error', message: 'boom' }] }));
    expect(doc.diagnostics).toEqual([{ file: null, line: null, col: null, severity: 'error', message: 'boom', address: null, code: null }]);
  });

  it('masks a sensitive field in fields and in any patch op at, under or above it', () => {
    const leaky: Plan = {
      ...representativePlan,
      changes: [
        {
          address: 'ContainerGroup/x',
          kind: 'ContainerGroup',
          action: 'update',
          drift: false,
          destructive: false,
          fields: [
            { path: '/p/0/secureValue', op: 'replace', before: 'old-s3cret', after: 'new-s3cret', cause: 'manifest', sensitive: true, forcesReplace: false },
          ],
          patch: [
            { op: 'replace', path: '/p/0/secureValue', value: 'new-s3cret' },
            { op: 'replace', path: '/p/0', value: { name: 'A', secureValue: 'new-s3cret' } },
            { op: 'replace', path: '/q', value: 'plain' },
          ],
        },
      ],
    };
    const text = renderPlanJson(leaky);
    expect(text).not.toContain('s3cret');
    expect(JSON.parse(text).changes[0].patch[2].value).toBe('plain');
  });
});

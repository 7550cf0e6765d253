// The text renderer: golden renderings of plans and drift reports, colour only on request, secrets masked.
import { describe, expect, it } from 'vitest';
import { renderPlanText } from '../../src/engine/render/index.js';
import type { Plan } from '../../src/engine/plan/types.js';
import { driftPlan, noChangePlan, noDriftPlan, representativePlan } from './sample-plans.js';

describe('renderPlanText', () => {
  it('renders every action, both causes, a forcing field, checks, diagnostics and the summary line', async () => {
    await expect(renderPlanText(representativePlan, { color: false, mode: 'plan' })).toMatchFileSnapshot('golden/plan.txt');
  });

  it('says there are no changes, with the zero summary line', async () => {
    const text = renderPlanText(noChangePlan, { color: false, mode: 'plan' });
    await expect(text).toMatchFileSnapshot('golden/no-changes.txt');
    expect(text).toContain('No changes. Live resources match the manifests.');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 0 to run.');
  });

  it('in drift mode shows only drifted resources and fields, and counts them', async () => {
    const text = renderPlanText(driftPlan, { color: false, mode: 'drift' });
    await expect(text).toMatchFileSnapshot('golden/drift.txt');
    expect(text).not.toContain('nginx');
    expect(text).not.toContain('ContainerGroup/web');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Drift: 2 resources drifted.');
  });

  it('reports no drift', () => {
    expect(renderPlanText(noDriftPlan, { color: false, mode: 'drift' }).trimEnd().split('\n').at(-1)).toBe('No drift: live resources match the last apply.');
  });

  it('prints no ANSI escape without colour, and colours glyphs with it', () => {
    expect(renderPlanText(representativePlan, { color: false, mode: 'plan' })).not.toMatch(/\u001b\[/);
    const coloured = renderPlanText(representativePlan, { color: true, mode: 'plan' });
    expect(coloured).toContain('\u001b[32m  +\u001b[39m');
    expect(coloured).toContain('\u001b[33m  ~\u001b[39m');
    expect(coloured).toContain('\u001b[35m-/+\u001b[39m');
    expect(coloured).toContain('\u001b[31m  -\u001b[39m');
    expect(coloured).toContain('\u001b[35m  !\u001b[39m');
  });

  it('never prints the values of a sensitive field, whatever the plan holds', () => {
    const leaky: Plan = {
      ...representativePlan,
      changes: [
        {
          address: 'ContainerGroup/x',
          kind: 'ContainerGroup',
          action: 'update',
          drift: true,
          destructive: false,
          patch: [],
          fields: [
            { path: '/p/secureValue', op: 'replace', before: 'old-s3cret', after: 'new-s3cret', cause: 'manifest', sensitive: true, forcesReplace: false },
            { path: '/p/key', op: 'add', after: { k: 'added-s3cret' }, cause: 'drift', sensitive: true, forcesReplace: false },
            { path: '/p/pw', op: 'remove', before: 'removed-s3cret', cause: 'drift', sensitive: true, forcesReplace: false },
          ],
        },
      ],
    };
    for (const mode of ['plan', 'drift'] as const) {
      const text = renderPlanText(leaky, { color: false, mode });
      expect(text).not.toMatch(/s3cret/);
      expect(text).toContain('+ /p/key: (sensitive)');
      expect(text).toContain('- /p/pw: (sensitive)');
      if (mode === 'plan') expect(text).toContain('~ /p/secureValue: (sensitive) → (sensitive)');
    }
  });

  it("shows a create's after-values as `+ path = value`, secrets masked, unknowns unquoted", () => {
    const text = renderPlanText(representativePlan, { color: false, mode: 'plan' });
    expect(text).toContain('      + /properties/containers[name=web]/properties/image = "nginx:1.27"');
    expect(text).toContain('environmentVariables[name=DB]/secureValue = (sensitive)');
    expect(text).toContain('+ /tags/upstream = (known after apply)');
    expect(text).toContain('~ /tags/upstream: "old.example" → (known after apply)');
    expect(text).not.toContain('"(known after apply)"');
  });

  it('says a removal will happen, and labels secrets an update sends again', () => {
    const text = renderPlanText(representativePlan, { color: false, mode: 'plan' });
    expect(text).toContain('- /tags/old: "x"  (drifted) will be removed');
    expect(text).toContain('environmentVariables[name=API_KEY]/secureValue: (sensitive, written on every update)');
  });

  it('cuts long values and keeps them on one line', () => {
    const text = renderPlanText(representativePlan, { color: false, mode: 'plan' });
    const line = text.split('\n').find((l) => l.includes('/command'))!;
    expect(line).toMatch(/…  ?\(\d+ chars\) → \["sh"\]/);
  });
});

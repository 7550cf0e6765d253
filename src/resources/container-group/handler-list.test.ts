// Reading container groups by listing their resource groups: a listing may start from targets
// foreseen before state is read, and each added target is answered from where it really is.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../core/json.js';
import type { ArmClient, ContainerGroupBody } from '../../providers/arm.js';
import type { Providers } from '../../providers/providers.js';
import type { KindContext, ListAnswer } from '../../core/kind.js';
import { resource } from './handler.js';

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const idOf = (rg: string, name: string) => `/subscriptions/${SUB}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups/${name}`;
const live = (rg: string, name: string): ContainerGroupBody => ({
  id: idOf(rg, name),
  name,
  location: 'westeurope',
  properties: { provisioningState: 'Succeeded' },
});

/** A fake ARM client whose resource groups hold `groups`; every listing is written down. */
function listingArm(groups: Record<string, string[]>): { ctx: KindContext; listed: string[] } {
  const listed: string[] = [];
  const arm = {
    listContainerGroups: async (_sub: string, rg: string) => {
      listed.push(rg);
      return (groups[rg] ?? []).map((name) => live(rg, name));
    },
  } as unknown as ArmClient;
  // Only the ARM client is used by this kind; the rest stay unset on purpose.
  return { ctx: { providers: { arm } as unknown as Providers, log: () => undefined }, listed };
}

const spec = (rg: string): JsonObject => ({ subscriptionId: SUB, resourceGroup: rg, location: 'westeurope' });
const names = (answers: readonly ListAnswer[]) => answers.map((a) => (a === 'read' || a === undefined ? a : a.id));

describe('ContainerGroup listing', () => {
  it('starts listing a resource group once two of its groups are foreseen, and answers the targets added later from that listing', async () => {
    const { ctx, listed } = listingArm({ 'rg-web': ['a', 'b'] });
    const run = resource.list!.begin!(ctx);
    run.foresee!({ name: 'a', spec: spec('rg-web') });
    expect(listed).toEqual([]);
    run.foresee!({ name: 'b', spec: spec('rg-web') });
    expect(listed).toEqual(['rg-web']);
    run.add({ name: 'a', spec: spec('rg-web'), recordedId: idOf('rg-web', 'a') });
    run.add({ name: 'b', spec: spec('rg-web'), recordedId: idOf('rg-web', 'b') });
    expect(names(await run.finish())).toEqual([idOf('rg-web', 'a'), idOf('rg-web', 'b')]);
    expect(listed).toEqual(['rg-web']);
  });

  it('reads a target state records elsewhere from there: a listing of the resource group its manifest names does not answer it', async () => {
    const { ctx, listed } = listingArm({ 'rg-new': ['a', 'b'], 'rg-old': ['a'] });
    const run = resource.list!.begin!(ctx);
    run.foresee!({ name: 'a', spec: spec('rg-new') });
    run.foresee!({ name: 'b', spec: spec('rg-new') });
    // a's resource group changed in the manifest; state still finds it in rg-old, alone there: read one by one.
    run.add({ name: 'a', spec: spec('rg-old'), recordedId: idOf('rg-old', 'a') });
    run.add({ name: 'b', spec: spec('rg-new'), recordedId: idOf('rg-new', 'b') });
    expect(names(await run.finish())).toEqual(['read', idOf('rg-new', 'b')]);
    expect(listed).toEqual(['rg-new']);
  });

  it('counts a foreseen group and the same group added once: a resource group with one group is read, not listed', async () => {
    const { ctx, listed } = listingArm({ 'rg-web': ['a'] });
    const run = resource.list!.begin!(ctx);
    run.foresee!({ name: 'a', spec: spec('rg-web') });
    run.add({ name: 'a', spec: spec('rg-web'), recordedId: idOf('rg-web', 'a') });
    expect(names(await run.finish())).toEqual(['read']);
    expect(listed).toEqual([]);
  });
});

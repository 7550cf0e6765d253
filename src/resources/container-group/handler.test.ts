// The ContainerGroup handler with a fake ARM client: spec <-> body mapping, whole-body PUT, delete, quota preflight.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../core/json.js';
import type { ArmClient, ContainerGroupBody, Usage } from '../../providers/arm.js';
import type { Providers } from '../../providers/providers.js';
import type { KindContext } from '../../core/kind.js';
import { resource } from './handler.js';

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';
const ID = `/subscriptions/${SUB}/resourceGroups/rg-web/providers/Vendor.ContainerInstance/containerGroups/web`;

type Call = [string, ...unknown[]];

function fakeArm(overrides: Partial<ArmClient> = {}): { ctx: KindContext; calls: Call[] } {
  const calls: Call[] = [];
  const arm = {
    getContainerGroup: async (...a: unknown[]) => {
      calls.push(['get', ...a]);
      return undefined;
    },
    putContainerGroup: async (s: string, rg: string, n: string, body: ContainerGroupBody) => {
      calls.push(['put', s, rg, n, body]);
      return { id: ID, name: n, type: 'Vendor.ContainerInstance/containerGroups', ...body, properties: { ...body.properties, provisioningState: 'Succeeded' } };
    },
    deleteContainerGroup: async (...a: unknown[]) => {
      calls.push(['delete', ...a]);
    },
    listUsage: async (): Promise<Usage[]> => [],
    ...overrides,
  } as unknown as ArmClient;
  // Only the ARM client is used by this kind; the rest stay unset on purpose.
  const ctx: KindContext = { providers: { arm } as unknown as Providers, log: () => undefined };
  return { ctx, calls };
}

const spec: JsonObject = {
  subscriptionId: SUB,
  resourceGroup: 'rg-web',
  location: 'westeurope',
  tags: { team: 'web' },
  properties: { osType: 'Linux', containers: [{ name: 'app', properties: { image: 'nginx' } }] },
};

describe('ContainerGroup handler', () => {
  it('read maps the response to the spec shape, with the ARM id and the whole body as outputs', async () => {
    const live = {
      id: ID,
      name: 'web',
      type: 'Vendor.ContainerInstance/containerGroups',
      location: 'westeurope',
      systemData: { createdBy: 'x' },
      properties: { provisioningState: 'Succeeded' },
    };
    const { ctx, calls } = fakeArm({ getContainerGroup: async () => live });
    const observed = await resource.read(ctx, { name: 'web', spec });
    expect(observed?.id).toBe(ID);
    expect(observed?.spec).toEqual({
      subscriptionId: SUB,
      resourceGroup: 'rg-web',
      name: 'web',
      location: 'westeurope',
      properties: { provisioningState: 'Succeeded' },
    });
    expect(observed?.outputs).toEqual(live);
    expect(calls).toEqual([]);
  });

  it('a group still provisioning is in progress; awaitSettled follows it where it is and answers the group as it ended', async () => {
    const live = (provisioningState: string) => ({ id: ID, name: 'web', location: 'westeurope', properties: { provisioningState, containers: [] } });
    const { ctx, calls } = fakeArm({
      getContainerGroup: async () => live('Pending'),
      awaitContainerGroup: async (...a: unknown[]) => {
        calls.push(['await', ...a]);
        return live('Succeeded');
      },
    });
    const pending = (await resource.read(ctx, { name: 'web', spec }))!;
    expect(pending.inProgress).toBe('still provisioning (provisioningState Pending)');
    const ended = await resource.awaitSettled!(ctx, pending);
    expect(calls).toEqual([['await', SUB, 'rg-web', 'web']]);
    expect(ended.inProgress).toBeUndefined();
    expect(ended.outputs).toEqual(live('Succeeded'));
  });

  it('read of a missing group is undefined', async () => {
    const { ctx, calls } = fakeArm();
    await expect(resource.read(ctx, { name: 'web', spec: { ...spec, name: 'other' } })).resolves.toBeUndefined();
    expect(calls).toEqual([['get', SUB, 'rg-web', 'other']]);
  });

  it('read follows the recorded id, so a changed resource group still finds the old group', async () => {
    const { ctx, calls } = fakeArm();
    await resource.read(ctx, { name: 'web', spec: { ...spec, resourceGroup: 'rg-new' }, recordedId: ID });
    expect(calls).toEqual([['get', SUB, 'rg-web', 'web']]);
  });

  it('create and update PUT the whole desired body, never a partial one', async () => {
    const { ctx, calls } = fakeArm();
    const created = await resource.create(ctx, 'web', spec);
    const updated = await resource.update(ctx, 'web', spec, created, [['tags', 'team']]);
    const body = { location: 'westeurope', tags: { team: 'web' }, properties: spec.properties };
    expect(calls).toEqual([
      ['put', SUB, 'rg-web', 'web', body],
      ['put', SUB, 'rg-web', 'web', body],
    ]);
    expect(updated.id).toBe(ID);
    expect(updated.spec.name).toBe('web');
  });

  it("update PUTs the group where it is (its id), not where metadata.name would put it: after `state mv web web2` without spec.name, the plan's update is one", async () => {
    const { ctx, calls } = fakeArm();
    const current = await resource.create(ctx, 'web', spec);
    calls.length = 0;
    const updated = await resource.update(ctx, 'web2', spec, current, [['tags', 'team']]);
    expect(calls.map((c) => c.slice(0, 4))).toEqual([['put', SUB, 'rg-web', 'web']]);
    expect(updated.id).toBe(ID);
  });

  it('delete parses the ARM id', async () => {
    const { ctx, calls } = fakeArm();
    await resource.delete(ctx, ID, {});
    expect(calls).toEqual([['delete', SUB, 'rg-web', 'web']]);
  });

  it('preflight reports every planned create of a location whose quota would be exceeded', async () => {
    const usage: Usage[] = [{ name: { value: 'ContainerGroups' }, currentValue: 99, limit: 100, unit: 'Count' }];
    const asked: string[] = [];
    const { ctx } = fakeArm({
      listUsage: async (s: string, loc: string) => {
        asked.push(`${s}/${loc}`);
        return loc === 'westeurope' ? usage : [];
      },
    });
    const errors = await resource.preflight!(ctx, [
      { address: 'ContainerGroup/a', spec },
      { address: 'ContainerGroup/b', spec: { ...spec, location: 'West Europe' } },
      { address: 'ContainerGroup/c', spec: { ...spec, location: 'northeurope' } },
    ]);
    expect(asked.sort()).toEqual([`${SUB}/northeurope`, `${SUB}/westeurope`]);
    expect(errors.map((e) => e.address)).toEqual(['ContainerGroup/a', 'ContainerGroup/b']);
    expect(errors[0].message).toContain('westeurope');
    expect(errors[0].message).toContain('99 container groups in use + 2 planned');
    expect(errors[0].message).toContain('limit of 100');
  });

  it('preflight passes when the creates fit', async () => {
    const { ctx } = fakeArm({ listUsage: async () => [{ name: { value: 'ContainerGroups' }, currentValue: 98, limit: 100 }] });
    await expect(
      resource.preflight!(ctx, [
        { address: 'ContainerGroup/a', spec },
        { address: 'ContainerGroup/b', spec },
      ]),
    ).resolves.toEqual([]);
  });
});

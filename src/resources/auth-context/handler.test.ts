// The AuthContext handler with a fake Graph client: mapping, create with all properties, update with only the changed ones.
import { describe, expect, it } from 'vitest';
import type { AuthContextBody, GraphClient } from '../../providers/graph.js';
import type { Providers } from '../../providers/providers.js';
import type { KindContext } from '../../core/kind.js';
import { resource } from './handler.js';

function fakeGraph(initial: Record<string, AuthContextBody> = {}): { ctx: KindContext; calls: unknown[][]; store: Map<string, AuthContextBody> } {
  const store = new Map(Object.entries(initial));
  const calls: unknown[][] = [];
  const graph: Pick<GraphClient, 'getAuthContext' | 'listAuthContexts' | 'patchAuthContext' | 'deleteAuthContext'> = {
    getAuthContext: async (id) => store.get(id),
    listAuthContexts: async () => {
      calls.push(['list']);
      return [...store.values()];
    },
    patchAuthContext: async (id, props) => {
      calls.push(['patch', id, props]);
      store.set(id, { ...store.get(id), id, ...props });
    },
    deleteAuthContext: async (id) => {
      calls.push(['delete', id]);
      store.delete(id);
    },
  };
  // Only the Graph client is used by this kind.
  return { ctx: { providers: { graph } as unknown as Providers, log: () => undefined }, calls, store };
}

describe('AuthContext handler', () => {
  it('read maps GET to {id, displayName, description, isAvailable}, by spec.id or the name', async () => {
    const { ctx } = fakeGraph({ c1: { id: 'c1', displayName: 'MFA', isAvailable: true } });
    await expect(resource.read(ctx, { name: 'c1', spec: {} })).resolves.toMatchObject({ id: 'c1', spec: { id: 'c1', displayName: 'MFA', isAvailable: true } });
    await expect(resource.read(ctx, { name: 'mfa', spec: { id: 'c1' } })).resolves.toMatchObject({ id: 'c1' });
    await expect(resource.read(ctx, { name: 'c2', spec: {} })).resolves.toBeUndefined();
  });

  it('reads many by one list (by recorded id, spec.id or name); a single target is left to read', async () => {
    const { ctx, calls } = fakeGraph({ c1: { id: 'c1', displayName: 'MFA', isAvailable: true }, c3: { id: 'c3' } });
    const answers = await resource.list!.readAll(ctx, [
      { name: 'c1', spec: {} },
      { name: 'x', spec: { id: 'c2' } },
      { name: 'y', spec: { id: 'c9' }, recordedId: 'c3' },
    ]);
    expect(answers).toEqual([
      { id: 'c1', spec: { id: 'c1', displayName: 'MFA', isAvailable: true }, outputs: { id: 'c1', displayName: 'MFA', isAvailable: true } },
      undefined,
      { id: 'c3', spec: { id: 'c3' }, outputs: { id: 'c3' } },
    ]);
    expect(calls).toEqual([['list']]);
    expect(resource.list!.complete).toBe(true);
    await expect(resource.list!.readAll(ctx, [{ name: 'c1', spec: {} }])).resolves.toEqual(['read']);
  });

  it('create PATCHes every set property and returns what the service then holds', async () => {
    const { ctx, calls } = fakeGraph();
    const obs = await resource.create(ctx, 'mfa', { id: 'c7', displayName: 'Require MFA', description: 'strong auth', isAvailable: false });
    expect(calls).toEqual([['patch', 'c7', { displayName: 'Require MFA', description: 'strong auth', isAvailable: false }]]);
    expect(obs).toMatchObject({ id: 'c7', spec: { id: 'c7', displayName: 'Require MFA', isAvailable: false } });
  });

  it('update PATCHes only the changed top-level properties', async () => {
    const { ctx, calls } = fakeGraph({ c7: { id: 'c7', displayName: 'Old', description: 'd', isAvailable: false } });
    const current = (await resource.read(ctx, { name: 'x', spec: { id: 'c7' } }))!;
    const obs = await resource.update(ctx, 'x', { id: 'c7', displayName: 'New', description: 'd', isAvailable: true }, current, [['isAvailable']]);
    expect(calls).toEqual([['patch', 'c7', { isAvailable: true }]]);
    expect(obs.spec).toEqual({ id: 'c7', displayName: 'Old', description: 'd', isAvailable: true });
  });

  it('update clears a changed property the spec no longer sets (text to null, isAvailable to false)', async () => {
    const { ctx, calls } = fakeGraph({ c7: { id: 'c7', displayName: 'Old', description: 'd', isAvailable: true } });
    const current = (await resource.read(ctx, { name: 'x', spec: { id: 'c7' } }))!;
    await resource.update(ctx, 'x', { id: 'c7', displayName: 'Old' }, current, [['description'], ['isAvailable']]);
    expect(calls).toEqual([['patch', 'c7', { description: null, isAvailable: false }]]);
  });

  it('delete deletes by id', async () => {
    const { ctx, calls } = fakeGraph({ c7: { id: 'c7' } });
    await resource.delete(ctx, 'c7', {});
    expect(calls).toEqual([['delete', 'c7']]);
  });
});

// Usage per location (paged, counting held groups) and server-name availability reasons.
import { describe, expect, it } from 'vitest';
import type { ParsedJson } from '../support/parsed-json.js';
import { call, cloud, groupBody, groupUrl, SUB } from './helpers.js';

const usageUrl = (base: string, location = 'westeurope', sub = SUB) =>
  `${base}/subscriptions/${sub}/providers/Vendor.ContainerInstance/locations/${location}/usages?api-version=2026-07-01`;
const namesUrl = (base: string) => `${base}/subscriptions/${SUB}/providers/Vendor.Sql/checkNameAvailability?api-version=2025-01-01`;

async function allUsages(url: string): Promise<{ pages: number; value: ParsedJson[] }> {
  let next: string | undefined = url;
  const value = [];
  let pages = 0;
  while (next) {
    const res = await call(next);
    expect(res.status).toBe(200);
    value.push(...res.body.value);
    next = res.body.nextLink;
    if (next) expect(next.startsWith('http://')).toBe(true);
    pages++;
  }
  return { pages, value };
}

describe('usage', () => {
  it('is one page of every usage entry and counts the groups and cores held in the location', async () => {
    const c = await cloud();
    const body = groupBody(
      {},
      {
        containers: [
          { name: 'a', properties: { image: 'x', resources: { requests: { cpu: 1.5, memoryInGB: 1 } } } },
          { name: 'b', properties: { image: 'x', resources: { requests: { cpu: 1, memoryInGB: 1 } } } },
        ],
      },
    );
    for (const name of ['one', 'two', 'three']) await call(groupUrl(c.url, name), { method: 'PUT', body });
    await call(groupUrl(c.url, 'far'), { method: 'PUT', body: groupBody({ location: 'North Europe' }) });
    const { pages, value } = await allUsages(usageUrl(c.url));
    expect(pages).toBe(1);
    expect(value.map((u) => u.name.value)).toEqual(['ContainerGroups', 'StandardCores', 'StandardK80Cores', 'StandardP100Cores', 'StandardV100Cores']);
    const groups = value.find((u) => u.name.value === 'ContainerGroups');
    expect(groups).toMatchObject({ currentValue: 3, limit: 100, unit: 'Count' });
    expect(value.find((u) => u.name.value === 'StandardCores')).toMatchObject({ currentValue: 8, limit: 100 });
    const north = await allUsages(usageUrl(c.url, 'northeurope'));
    expect(north.value.find((u) => u.name.value === 'ContainerGroups').currentValue).toBe(1);
  });

  it('stops counting a group once it is deleted', async () => {
    const c = await cloud();
    await call(groupUrl(c.url, 'one'), { method: 'PUT', body: groupBody() });
    await call(groupUrl(c.url, 'one'), { method: 'DELETE' });
    const { value } = await allUsages(usageUrl(c.url));
    expect(value.find((u) => u.name.value === 'ContainerGroups').currentValue).toBe(0);
  });

  it('refuses a subscription id that is not a UUID with a CloudError', async () => {
    const c = await cloud();
    const res = await call(usageUrl(c.url, 'westeurope', 'nope'));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('InvalidSubscriptionId');
  });
});

describe('name availability', () => {
  it.each<[string, string, { available: boolean; reason?: string }]>([
    ['a free name', 'my-new-server', { available: true }],
    ['upper-case letters', 'MyServer', { available: false, reason: 'Invalid' }],
    ['a dot', 'my.server', { available: false, reason: 'Invalid' }],
    ['an underscore', 'my_server', { available: false, reason: 'Invalid' }],
    ['a leading hyphen', '-server', { available: false, reason: 'Invalid' }],
    ['a trailing hyphen', 'server-', { available: false, reason: 'Invalid' }],
    ['64 characters', 'a'.repeat(64), { available: false, reason: 'Invalid' }],
    ['a seeded taken name', 'taken-server', { available: false, reason: 'AlreadyExists' }],
  ])('answers 200 for %s', async (_why, name, expected) => {
    const c = await cloud();
    const res = await call(namesUrl(c.url), { method: 'POST', body: { name, type: 'Vendor.Sql/servers' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name, ...expected });
    if (expected.available) expect(res.body.reason).toBeUndefined();
    if (expected.reason === 'Invalid') expect(res.body.message).toContain('at most 63 characters');
  });

  it('requires the api-version 2025-01-01', async () => {
    const c = await cloud();
    const res = await call(namesUrl(c.url).replace('2025-01-01', '2026-07-01'), { method: 'POST', body: { name: 'x', type: 'Vendor.Sql/servers' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('InvalidApiVersionParameter');
  });
});

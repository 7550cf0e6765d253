// Fixtures files: what they declare reaches the services' data; mistakes name the file and field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/engine/config.js';
import { readFixtures } from '../../src/localcloud/fixtures.js';
import { call, cloud, SUB } from './helpers.js';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'moor-fixtures-')), 'fixtures.yaml');
  writeFileSync(path, text);
  return path;
}

describe('fixtures', () => {
  it.each([
    ['unknown: 1', "'unknown' is not known"],
    [
      'databaseMovement: {projects: [{id: "1", environments: [{id: 0f1e2d3c-0000-4000-8000-00000000000a, type: Staging}]}]}',
      'databaseMovement.projects[0].environments[0].type must be Production or Sandbox',
    ],
    [`quotas: [{subscriptionId: ${SUB}, location: westeurope, containerGroups: -1}]`, 'quotas[0].containerGroups must be a whole number'],
    ['conversations: [{topicName: x}]', 'conversations[0].id must be a non-empty string'],
    ['containerGroupProfiles: [{id: web-profile, containers: [{name: web, image: nginx}]}]', 'containerGroupProfiles[0].id must be a resource id'],
    [
      `containerGroupProfiles: [{id: /subscriptions/${SUB}/resourcegroups/rg/providers/Vendor.ContainerInstance/containerGroupProfiles/p, containers: []}]`,
      'containerGroupProfiles[0].containers must list at least one container',
    ],
  ])('refuses %s', (text, message) => {
    const path = file(text);
    expect(() => readFixtures(path)).toThrow(message);
    expect(() => readFixtures(path)).toThrow(path);
  });

  it('a declared container group profile serves groups that name it, in any id casing and up to its revision', async () => {
    const profile = `/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroupProfiles/web-profile`;
    const c = await cloud({ fixtures: file(`containerGroupProfiles: [{id: ${profile}, revision: 2, containers: [{name: web, image: nginx}]}]`) });
    const url = (name: string) =>
      `${c.url}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/${name}?api-version=2026-07-01`;
    const body = (id: string, revision: number, container = 'web') => ({
      location: 'westeurope',
      properties: { containerGroupProfile: { id, revision }, containers: [{ name: container, properties: { configMap: { keyValuePairs: { A: 'b' } } } }] },
    });
    expect(
      (
        await call(url('a'), {
          method: 'PUT',
          body: body(profile.replace('resourceGroups', 'resourcegroups').toUpperCase().replace('/SUBSCRIPTIONS/', '/subscriptions/'), 2),
        })
      ).status,
    ).toBe(201);
    const tooNew = await call(url('b'), { method: 'PUT', body: body(profile, 3) });
    expect(tooNew.status).toBe(400);
    expect(tooNew.body.error).toMatchObject({ code: 'ContainerGroupProfileNotFound', target: 'properties.containerGroupProfile.id' });
    const unknown = await call(url('c'), { method: 'PUT', body: body(profile.replace('web-profile', 'other'), 1) });
    expect(unknown.body.error.code).toBe('ContainerGroupProfileNotFound');
    const stranger = await call(url('d'), { method: 'PUT', body: body(profile, 1, 'api') });
    expect(stranger.body.error).toMatchObject({ code: 'InvalidRequestContent', target: 'properties.containers[0].name' });
  });

  it('a quota of the fixtures limits creates in that subscription and location only', async () => {
    const c = await cloud({ fixtures: file(`quotas: [{subscriptionId: ${SUB}, location: West Europe, containerGroups: 1}]`) });
    const url = (name: string) =>
      `${c.url}/subscriptions/${SUB}/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/${name}?api-version=2026-07-01`;
    const body = (location: string) => ({
      location,
      properties: { osType: 'Linux', containers: [{ name: 'a', properties: { image: 'x', resources: { requests: { cpu: 1, memoryInGB: 1 } } } }] },
    });
    expect((await call(url('one'), { method: 'PUT', body: body('westeurope') })).status).toBe(201);
    const refused = await call(url('two'), { method: 'PUT', body: body('westeurope') });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ContainerGroupQuotaReached');
    expect((await call(url('three'), { method: 'PUT', body: body('northeurope') })).status).toBe(201);
  });

  it('moor.config.yaml takes localCloud: {fixtures: FILE} and refuses other keys', () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-conf-'));
    writeFileSync(join(dir, 'moor.config.yaml'), 'localCloud: {fixtures: f.yaml}\n');
    expect(loadConfig(undefined, dir, {}).localCloud).toEqual({ fixtures: 'f.yaml' });
    writeFileSync(join(dir, 'moor.config.yaml'), 'localCloud: {data: x}\n');
    expect(() => loadConfig(undefined, dir, {})).toThrow(/localCloud must be \{fixtures: FILE\}/);
  });
});

// The data file: what one run stores, the next run finds; demo data only fills an empty store.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalCloud } from '../../src/localcloud/server.js';
import { call, groupBody, groupUrl } from './helpers.js';

async function tempFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'moor-lc-')), 'nested', 'local-cloud.json');
}

describe('persistence', () => {
  it('keeps container groups across a restart with the same data file', async () => {
    const dataFile = await tempFile();
    const first = await startLocalCloud({ port: 0, dataFile, provisioningMs: 0 });
    expect((await call(groupUrl(first.url, 'web'), { method: 'PUT', body: groupBody({ tags: { v: '1' } }) })).status).toBe(201);
    await first.close();
    const second = await startLocalCloud({ port: 0, dataFile, provisioningMs: 0 });
    try {
      const res = await call(groupUrl(second.url, 'web'));
      expect(res.status).toBe(200);
      expect(res.body.tags).toEqual({ v: '1' });
      expect(res.body.id).toContain('/containerGroups/web');
    } finally {
      await second.close();
    }
  });

  it('finishes provisioning that was in progress at shutdown, from its timestamps', async () => {
    const dataFile = await tempFile();
    const first = await startLocalCloud({ port: 0, dataFile, provisioningMs: 60_000 });
    const put = await call(groupUrl(first.url, 'web'), { method: 'PUT', body: groupBody() });
    expect(put.body.properties.provisioningState).toBe('Pending');
    await first.close();
    const second = await startLocalCloud({ port: 0, dataFile, provisioningMs: 0 });
    try {
      expect((await call(groupUrl(second.url, 'web'))).body.properties.provisioningState).toBe('Succeeded');
    } finally {
      await second.close();
    }
  });

  it('writes a JSON file atomically and gathers many changes into few writes', async () => {
    const dataFile = await tempFile();
    const c = await startLocalCloud({ port: 0, dataFile, provisioningMs: 0 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => call(groupUrl(c.url, `g${i}`), { method: 'PUT', body: groupBody() })));
    await c.close();
    const saved = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(Object.keys(saved.services.arm.containerGroups)).toHaveLength(40);
  });

  it('refuses to start on a data file that is not JSON, saying which file', async () => {
    const dataFile = await tempFile();
    const c = await startLocalCloud({ port: 0, dataFile });
    await c.close();
    await writeFile(dataFile, '{not json');
    await expect(startLocalCloud({ port: 0, dataFile })).rejects.toThrow(dataFile);
  });
});

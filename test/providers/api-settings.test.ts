// Per-API settings: api-version, namespace and version header from moor.config.yaml `apis:`,
// the seeds' values by default; database-movement POSTs carry Content-Type: application/json.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { loadConfig } from '../../src/engine/config.js';
import { createProviders } from '../../src/providers/providers.js';
import { ENDPOINTS, mswServer } from './helpers.js';

const server = mswServer();
const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';

function seen(): { url: URL; headers: Headers }[] {
  const list: { url: URL; headers: Headers }[] = [];
  const record = ({ request }: { request: Request }) => {
    list.push({ url: new URL(request.url), headers: request.headers });
    return HttpResponse.json({ value: [], IsSuccess: true, OperationActivityId: 'a', OperationStatus: 'Completed', nameAvailable: true, available: true });
  };
  server.use(http.all('https://arm.test/*', record), http.all('https://lcs.test/*', record));
  return list;
}

describe('api settings', () => {
  it("uses the seeds' values by default, and sends Content-Type: application/json on database-movement POSTs", async () => {
    const list = seen();
    const p = createProviders({ endpoints: ENDPOINTS, defaultToken: 't' });
    await p.arm.listUsage(SUB, 'westeurope');
    await p.lcs.exportDatabase('1', 'e', 'b');
    await p.lcs.refreshDatabase('1', 's', 't');
    expect(list[0].url.pathname).toContain('/providers/Vendor.ContainerInstance/locations/westeurope/usages');
    expect(list[0].url.searchParams.get('api-version')).toBe('2026-07-01');
    expect(list[1].headers.get('content-type')).toBe('application/json');
    expect(list[2].headers.get('content-type')).toBe('application/json');
    expect(list[2].headers.get('x-vendor-version')).toBe('2017-09-15');
  });

  it('takes api-version, namespace and version header from the configuration', async () => {
    const list = seen();
    const p = createProviders({
      endpoints: ENDPOINTS,
      defaultToken: 't',
      apis: {
        containerInstance: { apiVersion: '2023-05-01', namespace: 'Microsoft.ContainerInstance' },
        sql: { namespace: 'Microsoft.Sql' },
        lcs: { versionHeader: 'x-ms-version' },
      },
    });
    await p.arm.listUsage(SUB, 'westeurope');
    await p.arm.checkNameAvailability(SUB, 'srv');
    await p.lcs.fetchStatus('1', 'e', 'a');
    expect(list[0].url.pathname).toContain('/providers/Microsoft.ContainerInstance/');
    expect(list[0].url.searchParams.get('api-version')).toBe('2023-05-01');
    expect(list[1].url.pathname).toContain('/providers/Microsoft.Sql/checkNameAvailability');
    expect(list[1].url.searchParams.get('api-version')).toBe('2025-01-01');
    expect(list[2].headers.get('x-ms-version')).toBe('2017-09-15');
    expect(list[2].headers.get('x-vendor-version')).toBeNull();
  });

  it('reads apis from moor.config.yaml and names a wrong key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-apis-'));
    writeFileSync(join(dir, 'moor.config.yaml'), 'apis:\n  billing: {apiVersion: 2025-01-01, namespace: Microsoft.Billing}\n');
    expect(loadConfig(undefined, dir, {}).apis).toEqual({ billing: { apiVersion: '2025-01-01', namespace: 'Microsoft.Billing' } });
    writeFileSync(join(dir, 'moor.config.yaml'), 'apis:\n  lcs: {namespace: X.Y}\n');
    expect(() => loadConfig(undefined, dir, {})).toThrow(/apis\.lcs\.namespace is not a setting/);
    writeFileSync(join(dir, 'moor.config.yaml'), 'apis:\n  graph: {apiVersion: beta}\n');
    expect(() => loadConfig(undefined, dir, {})).toThrow(/apis\.graph is not an API/);
  });
});

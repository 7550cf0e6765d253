// The services' official clients against `moor local-cloud --tls`: each runs its operations with
// only a base URL and a credential (no custom policy or middleware), trusting the printed
// certificate through NODE_EXTRA_CA_CERTS as a user would.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { groupManifest, ROOT, startCloud, SUB, TOKEN, workdir, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

const run = promisify(execFile);

describe('official clients over https', () => {
  let cloud: Cloud;
  let certFile: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-tls-'));
    cloud = await startCloud({ dataFile: join(dir, 'cloud.json'), args: ['--tls', '--brand-word', 'Microsoft'] });
    certFile = join(dir, 'local-cloud-cert.pem');
  });
  afterAll(() => cloud?.stop());

  /** Runs one client script in its own process (NODE_EXTRA_CA_CERTS is read at start) and parses its report. */
  async function client(script: string): Promise<Record<string, unknown>> {
    const { stdout } = await run(process.execPath, [join(ROOT, 'test/official-clients', script), cloud.url, TOKEN, SUB], {
      cwd: ROOT,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile },
      timeout: 60_000,
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  test('the cloud serves https with a certificate kept beside its data', () => {
    expect(cloud.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(certFile)).toBe(true);
  });

  test('the container-instance client creates, reads, lists, reads all usage and deletes a group', async () => {
    expect(await client('container-instance.mjs')).toEqual({
      created: 'Succeeded',
      fetched: 'sdk-web',
      listed: ['sdk-web'],
      gone: true,
      usage: ['ContainerGroups', 'StandardCores', 'StandardK80Cores', 'StandardP100Cores', 'StandardV100Cores'],
    });
  });

  test('the Graph client upserts, reads, lists and deletes an auth context', async () => {
    expect(await client('graph.mjs')).toEqual({ got: 'From the SDK', listed: ['c42'], gone: true });
  });

  test('the connector client sends, edits and deletes an activity and lists members', async () => {
    expect(await client('connector.mjs')).toMatchObject({ sent: true });
  });

  test('moor itself applies over https trusting the same certificate', async () => {
    const dir = workdir({ 'm/web.yaml': groupManifest('tls-web'), 'm/secret.txt': 's3cret-value' });
    const apply = await moorProcess(dir, cloud, ['apply', 'm', '--auto-approve'], { NODE_EXTRA_CA_CERTS: certFile });
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain('ContainerGroup/tls-web');
  });
});

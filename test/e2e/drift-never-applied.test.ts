// drift compares live resources with the last apply: a manifest never applied (or whose state was
// lost) has nothing to compare with. A cron job must not read that as "all is well" without a word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ARM_PATH, authManifest, cloudRequest, groupManifest, moor, startCloud, workdir, type Cloud } from './harness.js';

describe('drift of manifests that were never applied', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it('exits 0 but warns, per resource, that it is not in state and plan shows its create', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'm/c2.yaml': authManifest('c2', { displayName: 'Two' }) });
    expect((await moor(dir, cloud, ['apply', 'm/c1.yaml', '--auto-approve'])).code).toBe(0);
    const text = await moor(dir, cloud, ['drift', 'm']);
    expect(text.code).toBe(0);
    expect(text.stdout + text.stderr).toContain(
      'AuthContext/c2: is in the manifests but not in state (never applied, or its state was lost): drift has nothing to compare it with; moor plan shows it as a create',
    );
    expect(text.stdout + text.stderr).not.toContain('AuthContext/c1: is in the manifests but not in state');
    const json = await moor(dir, cloud, ['drift', 'm', '--output', 'json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { changes: unknown[]; diagnostics: { address?: string; severity: string; message: string }[] };
    expect(doc.changes).toEqual([]);
    expect(doc.diagnostics).toContainEqual(expect.objectContaining({ address: 'AuthContext/c2', severity: 'warning' }));
  });
});

describe('drift with its state lost', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it('never says a resource not in state "has drifted" from a last apply it has no record of: unverified, in the report and the chat message', async () => {
    const conversation = '19:ops-alerts';
    const dir = workdir({
      'm/secret.txt': 'drift-no-state-secret',
      'm/tagged.yaml': groupManifest('lost-tagged', { tags: { team: 'core' } }),
      'moor.config.yaml': `notify:\n  serviceUrl: ${cloud.url}\n  conversationId: "${conversation}"\n  bot: {id: "28:moor-bot", name: moor}\n  tokenEnv: MOOR_TOKEN\n`,
    });
    expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    // A tag added by hand: with a record it is drift; with the state lost nothing says since when.
    const live = await cloudRequest(cloud, 'GET', ARM_PATH('lost-tagged'));
    expect((await cloudRequest(cloud, 'PUT', ARM_PATH('lost-tagged'), { ...live.body, tags: { team: 'core', owner: 'alice' } })).status).toBe(200);
    rmSync(join(dir, '.moor/state.json'));

    const text = await moor(dir, cloud, ['drift', 'm', '--notify']);
    const said = text.stdout + text.stderr;
    expect(said).toContain('ContainerGroup/lost-tagged: exists live but is not in state');
    expect(said).toContain('unverified');
    expect(said).not.toMatch(/drifted/);
    const json = JSON.parse((await moor(dir, cloud, ['drift', 'm', '--output', 'json'])).stdout) as { changes: unknown[] };
    expect(json.changes).toEqual([]);
    const posted = (await cloudRequest(cloud, 'GET', `/v3/conversations/${encodeURIComponent(conversation)}/activities`)).body.activities as { text: string }[];
    expect(posted.length).toBeGreaterThan(0);
    for (const message of posted) expect(message.text).not.toMatch(/drifted/);
    expect(posted.at(-1)!.text).toContain('holds no resources');
  });
});

// moor discover adopts what was made outside moor: container groups PUT directly (secrets, secret
// and emptyDir volumes, init containers, identities, a public IP with a DNS label, a group from a
// profile and a standby pool), datasets of one name, auth contexts made by PATCH, and a group
// another moor state made and lost. With --import the written folder validates clean, plans empty
// and shows no drift; no secret value reaches a file, state or output; a later hand change is that
// resource's drift only; a second discover adds what is new and leaves the rest alone.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AUTH_PATH, cloudRequest, groupManifest, moor, putBehindMoor, startCloud, SUB, WORKSPACE, workdir, type Cloud } from './harness.js';

const NS = 'Vendor.ContainerInstance';
const groupPath = (rg: string, name: string) => `/subscriptions/${SUB}/resourceGroups/${rg}/providers/${NS}/containerGroups/${name}?api-version=2026-07-01`;
const PROFILE = `/subscriptions/${SUB}/resourceGroups/rg-pool/providers/${NS}/containerGroupProfiles/web-profile`;
const POOL = `/subscriptions/${SUB}/resourcegroups/rg-pool/providers/Vendor.StandbyPool/standbyContainerGroupPools/web-pool`;
const IDENTITY = `/subscriptions/${SUB}/resourceGroups/rg-ids/providers/Microsoft.ManagedIdentity/userAssignedIdentities/api-id`;
const FIXTURES = `containerGroupProfiles:\n  - id: ${PROFILE}\n    revision: 2\n    containers: [{name: web, image: nginx:1.27, cpu: 1, memoryInGB: 1.5}]\n`;

/** Values that must never appear anywhere moor writes. */
const SECRETS = ['hunter2-db-password', 'migrate-token-value', 'registry-password-xyz', 'dGxzLWNlcnQtYm9keQ=='];

const requests = { requests: { cpu: 1, memoryInGB: 1.5 } };
const API = {
  location: 'westeurope',
  tags: { team: 'payments' },
  identity: { type: 'SystemAssigned, UserAssigned', userAssignedIdentities: { [IDENTITY]: {} } },
  properties: {
    osType: 'Linux',
    restartPolicy: 'Always',
    sku: 'Standard',
    containers: [
      {
        name: 'api',
        properties: {
          image: 'registry.example.net/api:2.1',
          resources: requests,
          ports: [{ port: 443, protocol: 'TCP' }],
          environmentVariables: [
            { name: 'MODE', value: 'production' },
            { name: 'DB_PASSWORD', secureValue: SECRETS[0] },
          ],
          volumeMounts: [
            { name: 'cache', mountPath: '/cache' },
            { name: 'certs', mountPath: '/certs', readOnly: true },
          ],
        },
      },
    ],
    initContainers: [
      { name: 'migrate', properties: { image: 'registry.example.net/migrate:2.1', environmentVariables: [{ name: 'TOKEN', secureValue: SECRETS[1] }] } },
    ],
    imageRegistryCredentials: [{ server: 'registry.example.net', username: 'puller', password: SECRETS[2] }],
    volumes: [
      { name: 'cache', emptyDir: {} },
      { name: 'certs', secret: { 'tls.crt': SECRETS[3] } },
    ],
    ipAddress: { type: 'Public', ports: [{ port: 443, protocol: 'TCP' }], dnsNameLabel: 'api-disc' },
  },
};
const WORKER = { location: 'westeurope', properties: { containers: [{ name: 'worker', properties: { image: 'busybox:1.36', resources: requests } }] } };
const POOLED = {
  location: 'westeurope',
  properties: {
    containerGroupProfile: { id: PROFILE, revision: 1 },
    standbyPoolProfile: { id: POOL },
    containers: [{ name: 'web', properties: { configMap: { keyValuePairs: { GREETING: 'hello' } } } }],
  },
};
const SALES = {
  name: 'sales',
  tables: [
    {
      name: 'Orders',
      columns: [
        { name: 'OrderID', dataType: 'Int64' },
        { name: 'Amount', dataType: 'Double' },
      ],
    },
  ],
};

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }));
}

describe('moor discover --import adopts what was made outside moor', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (...args: string[]) => moor(dir, cloud, args);
  const outputs: string[] = [];
  const noSecretIn = (text: string) => {
    for (const s of SECRETS) expect(text).not.toContain(s);
  };

  beforeAll(async () => {
    const fixtures = workdir({ 'fixtures.yaml': FIXTURES });
    cloud = await startCloud({ args: ['--fixtures', `${fixtures}/fixtures.yaml`] });
    dir = workdir();
    for (const [rg, name, body] of [
      ['rg-disc-a', 'api', API],
      ['rg-disc-a', 'worker', WORKER],
      ['rg-disc-b', 'pooled', POOLED],
    ] as const) {
      const put = await putBehindMoor(cloud, groupPath(rg, name), body);
      expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    }
    // Made by another moor state that is gone since: only the live group is left.
    const other = workdir({ 'm/secret.txt': 'other-state-secret', 'm/legacy.yaml': groupManifest('legacy', { resourceGroup: 'rg-disc-b' }) });
    const applied = await moor(other, cloud, ['apply', 'm', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    rmSync(join(other, '.moor'), { recursive: true });
    for (let i = 0; i < 2; i++) expect((await cloudRequest(cloud, 'POST', `/v1.0/myorg/groups/${WORKSPACE}/datasets`, SALES)).status).toBe(201);
    expect(
      (await cloudRequest(cloud, 'PATCH', AUTH_PATH('c7'), { displayName: 'Require MFA', description: 'Step-up for payments', isAvailable: true })).status,
    ).toBe(204);
    expect((await cloudRequest(cloud, 'PATCH', AUTH_PATH('c8'), { displayName: 'Compliant device' })).status).toBe(204);
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('one manifest per live resource, validate clean, plan empty, drift 0, no secret anywhere', async () => {
    const found = await run('discover', '--subscription', SUB, '--workspace', WORKSPACE, '--auth-contexts', '--out', 'adopted', '--import');
    outputs.push(found.stdout, found.stderr);
    expect(found.code, found.stdout + found.stderr).toBe(0);
    const addresses = ['ContainerGroup/api', 'ContainerGroup/worker', 'ContainerGroup/pooled', 'ContainerGroup/legacy', 'AuthContext/c7', 'AuthContext/c8'];
    for (const a of addresses) expect(found.stdout).toContain(`+ ${a}`);
    // Two datasets of one name: two addresses, and the output says they were told apart by their ids.
    const sales = [...found.stdout.matchAll(/\+ (PushDataset\/sales-[0-9a-f]{8})/g)].map((m) => m[1]);
    expect(sales).toHaveLength(2);
    expect(found.stdout).toMatch(/Told apart: 2 live resources are named "sales": PushDataset\/sales-[0-9a-f]{8} \(id [0-9a-f-]{36}\)/);
    // Hidden secrets are named placeholders, listed by name in .env.example.
    expect(found.stdout).toContain('API_DB_PASSWORD');
    const envExample = readFileSync(join(dir, 'adopted/.env.example'), 'utf8');
    for (const name of ['API_DB_PASSWORD', 'API_TOKEN', 'API_REGISTRY_PASSWORD', 'LEGACY_DB_PASSWORD'])
      expect(envExample).toMatch(new RegExp(`^${name}=$`, 'm'));
    // What cannot be written is said: the secret volume's files.
    expect(found.stdout).toMatch(/Not written.*\n(.*\n)*.*ContainerGroup\/api: spec\.properties\.volumes\[name=certs\]\.secret: the service hides/);

    const files = filesUnder(join(dir, 'adopted')).filter((f) => f.file.endsWith('.yaml'));
    expect(files.map((f) => f.file).sort()).toEqual(['auth-contexts.yaml', 'rg-disc-a.yaml', 'rg-disc-b.yaml', `workspace-${WORKSPACE}.yaml`]);
    const text = files.map((f) => f.text).join('\n');
    expect(text.match(/^kind: /gm)).toHaveLength(8);
    // Only what a person writes: no service-filled field, no default, the hidden secret as a placeholder.
    const api = files.find((f) => f.file === 'rg-disc-a.yaml')!.text;
    for (const absent of [
      'provisioningState',
      'instanceView',
      'systemData',
      'principalId',
      'tenantId',
      'fqdn',
      'isCreatedFromStandbyPool',
      'restartPolicy',
      'sku:',
      'protocol:',
      'ip:',
      '/providers/Vendor.ContainerInstance/containerGroups/',
    ])
      expect(text).not.toContain(absent);
    expect(api).toContain('secureValue: ${env:API_DB_PASSWORD}');
    expect(api).toContain('dnsNameLabel: api-disc');
    expect(api).toContain('emptyDir: {}');
    expect(text).not.toContain('measures: []');
    expect(envExample).toContain('# ContainerGroup/api: spec.properties.containers[name=api].properties.environmentVariables[name=DB_PASSWORD].secureValue');
    expect(api.indexOf('subscriptionId')).toBeLessThan(api.indexOf('location:'));

    const validate = await run('validate', 'adopted');
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    expect(validate.stdout + validate.stderr).not.toMatch(/warning|error/);
    const plan = await run('plan', 'adopted', '--detailed-exitcode');
    outputs.push(plan.stdout, plan.stderr);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // Four variables and the secret volume's files.
    expect(plan.stdout).toContain(
      'Adopted secrets: 5 hidden values in 2 resources moor never saw are not set: kept as live holds them, no change until their ${env:} are set.',
    );
    const drift = await run('drift', 'adopted');
    outputs.push(drift.stdout, drift.stderr);
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);

    const state = readFileSync(join(dir, '.moor/state.json'), 'utf8');
    expect(Object.keys(JSON.parse(state).resources).sort()).toEqual([...addresses, ...sales].sort());
    for (const t of [...filesUnder(dir).map((f) => f.text), ...outputs]) noSecretIn(t);
  });

  test('a secret given a value is a change of its resource only; without it plan keeps the live one', async () => {
    const given = await run('plan', 'adopted', '--detailed-exitcode', '--output', 'json');
    expect(given.code).toBe(0);
    const set = await moor(dir, cloud, ['plan', 'adopted', '--detailed-exitcode', '--output', 'json'], { API_DB_PASSWORD: 'a-new-password' });
    expect(set.code, set.stderr).toBe(2);
    const changed = JSON.parse(set.stdout).changes.filter((c: { action: string }) => c.action !== 'no-op');
    expect(changed.map((c: { address: string }) => c.address)).toEqual(['ContainerGroup/api']);
    expect(set.stdout).not.toContain('a-new-password');
    // A change to the group while its adopted secret is unset is refused by apply, naming the variable: the marker is never sent.
    const file = join(dir, 'adopted/rg-disc-a.yaml');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace('team: payments', 'team: checkout'));
    const apply = await run('apply', 'adopted', '--auto-approve');
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('API_DB_PASSWORD is not set');
    writeFileSync(file, before);
    const live = await cloudRequest(cloud, 'GET', groupPath('rg-disc-a', 'api'));
    expect(live.body.tags).toEqual({ team: 'payments' });
  });

  test('a second discover adds only what is new and says what it left alone', async () => {
    expect((await putBehindMoor(cloud, groupPath('rg-disc-a', 'late'), WORKER)).status).toBeLessThan(300);
    const again = await run('discover', '--subscription', SUB, '--resource-group', 'rg-disc-a', '--out', 'adopted', '--import');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    // A third run finds nothing new; as JSON it says each is left alone, with its file.
    const third = await run('discover', '--subscription', SUB, '--resource-group', 'rg-disc-a', '--out', 'adopted', '--import', '--output', 'json');
    expect(third.code, third.stderr).toBe(0);
    const report = JSON.parse(third.stdout);
    expect(report.format).toBe('moor-discover/1');
    expect(report.files).toEqual([]);
    expect(report.resources.map((r: { address: string; status: string; file: string }) => `${r.address} ${r.status} ${r.file}`).sort()).toEqual([
      'ContainerGroup/api existing adopted/rg-disc-a.yaml',
      'ContainerGroup/late existing adopted/rg-disc-a.2.yaml',
      'ContainerGroup/worker existing adopted/rg-disc-a.yaml',
    ]);
    expect(again.stdout).toContain('+ ContainerGroup/late  adopted/rg-disc-a.2.yaml  (imported)');
    expect(again.stdout).toMatch(/Left alone \(2\)/);
    expect(again.stdout).toContain('= ContainerGroup/api  adopted/rg-disc-a.yaml');
    const plan = await run('plan', 'adopted', '--detailed-exitcode');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  test('a later hand change is drift of that resource only', async () => {
    const changed = { ...WORKER, properties: { containers: [{ name: 'worker', properties: { image: 'busybox:1.37', resources: requests } }] } };
    expect((await putBehindMoor(cloud, groupPath('rg-disc-a', 'worker'), changed)).status).toBeLessThan(300);
    const drift = await run('drift', 'adopted', '--output', 'json');
    expect(drift.code, drift.stderr).toBe(2);
    const drifted = JSON.parse(drift.stdout).changes.filter((c: { action: string }) => c.action !== 'no-op');
    expect(drifted.map((c: { address: string }) => c.address)).toEqual(['ContainerGroup/worker']);
  });
});

// A value from ${env:} or ${file:} in a field the kind does not mark sensitive is a secret too:
// never in state, saved plans or output, and still compared (no perpetual diff, changes seen).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARM_PATH, cloudRequest, groupManifest, moor, putBehindMoor, startCloud, workdir, type Cloud } from './harness.js';

const FIRST = 'e2e-plain-field-secret-one';
const SECOND = 'e2e-plain-field-secret-two';
const THIRD = 'e2e-plain-field-secret-three';
const SALTED_HASH = /^sha256:[^:"\s]+:[0-9a-f]{64}$/;

describe('placeholder values in fields the kind does not mark sensitive', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (secret: string, ...args: string[]) => moor(dir, cloud, args, { DB_PASS: secret });
  /** Everything moor keeps under .moor (state, its backup and journal). */
  const kept = () =>
    readdirSync(join(dir, '.moor'))
      .map((f) => readFileSync(join(dir, '.moor', f), 'utf8'))
      .join('\n');

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({
      'm/secret.txt': 'e2e-secure-value-secret\n',
      'm/web.yaml': groupManifest('web', { tags: { conn: '"postgres://app:${env:DB_PASS}@db/app"' } }),
    });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('apply keeps the value only as a salted hash, in last applied and outputs, and never prints it', async () => {
    const r = await run(FIRST, 'apply', 'm', '--auto-approve');
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(FIRST);
    expect(r.stdout).toContain('+ /tags/conn = (sensitive)');
    expect(kept()).not.toContain(FIRST);
    const record = JSON.parse(readFileSync(join(dir, '.moor/state.json'), 'utf8')).resources['ContainerGroup/web'];
    expect(record.lastApplied.tags.conn).toMatch(SALTED_HASH);
    expect(record.outputs.tags.conn).toMatch(SALTED_HASH);
    expect(record.lastApplied.subscriptionId).toBe('8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11');
  });

  test('an unchanged value plans no change; a changed one is a manifest change shown as (sensitive)', async () => {
    expect((await run(FIRST, 'plan', 'm', '--detailed-exitcode')).code).toBe(0);
    const changed = await run(SECOND, 'plan', 'm', '--detailed-exitcode', '--out', 'p.json');
    expect(changed.code).toBe(2);
    expect(changed.stdout).toContain('~ /tags/conn: (sensitive) → (sensitive)  (manifest changed)');
    expect(changed.stdout + changed.stderr).not.toMatch(/e2e-plain-field-secret-(one|two)/);
    const saved = readFileSync(join(dir, 'p.json'), 'utf8');
    expect(saved).not.toMatch(/e2e-plain-field-secret/);
    const json = await run(SECOND, 'plan', 'm', '--output', 'json');
    expect(json.stdout).not.toMatch(/e2e-plain-field-secret/);
  });

  test('apply --plan refuses a value that is not the reviewed one, and applies the reviewed one', async () => {
    const refused = await run(THIRD, 'apply', '--plan', 'p.json');
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('refused: its desired value at /tags/conn is not the one reviewed in the plan');
    expect(refused.stdout + refused.stderr).not.toMatch(/e2e-plain-field-secret/);
    const applied = await run(SECOND, 'apply', '--plan', 'p.json');
    expect(applied.code).toBe(0);
    expect(kept()).not.toMatch(/e2e-plain-field-secret/);
    expect((await run(SECOND, 'plan', 'm', '--detailed-exitcode')).code).toBe(0);
  });

  test('a live value changed by hand is drift, its values still hidden', async () => {
    const live = await cloudRequest(cloud, 'GET', ARM_PATH('web'));
    const body = { location: live.body.location, tags: { conn: 'changed-by-hand-value' }, properties: { ...live.body.properties } };
    body.properties.containers[0].properties.environmentVariables[1].secureValue = 'e2e-secure-value-secret';
    expect((await putBehindMoor(cloud, ARM_PATH('web'), body)).status).toBe(200);
    const drift = await run(SECOND, 'drift', 'm');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('~ /tags/conn: (sensitive) → (sensitive)  (drifted)');
    expect(drift.stdout + drift.stderr).not.toMatch(/e2e-plain-field-secret|changed-by-hand-value/);
  });

  test('a record written before moor hashed these values is rewritten by the next apply, even a no-op', async () => {
    expect((await run(SECOND, 'apply', 'm', '--auto-approve')).code).toBe(0); // takes back the drift
    const file = join(dir, '.moor/state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.resources['ContainerGroup/web'].lastApplied.tags.conn = `postgres://app:${SECOND}@db/app`;
    writeFileSync(file, JSON.stringify(state));
    const noop = await run(SECOND, 'apply', 'm', '--auto-approve');
    expect(noop.code).toBe(0);
    expect(noop.stdout).toContain('Apply complete: no changes.');
    // (state.json.backup keeps the document as it was before, by design.)
    expect(readFileSync(file, 'utf8')).not.toMatch(/e2e-plain-field-secret/);
  });

  test('an environment value not named like a secret (an image tag) stays visible in the plan and in state', async () => {
    const own = workdir({ 'm/secret.txt': 'e2e-secure-value-secret\n', 'm/tagged.yaml': groupManifest('tagged', { image: 'nginx:${env:IMAGE_TAG}' }) });
    const tag = { IMAGE_TAG: '1.27-e2e-visible' };
    const plan = await moor(own, cloud, ['plan', 'm'], tag);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('"nginx:1.27-e2e-visible"');
    expect((await moor(own, cloud, ['apply', 'm', '--auto-approve'], tag)).code).toBe(0);
    const record = JSON.parse(readFileSync(join(own, '.moor/state.json'), 'utf8')).resources['ContainerGroup/tagged'];
    expect(record.lastApplied.properties.containers[0].properties.image).toBe('nginx:1.27-e2e-visible');
  });
});

// Check kind end-to-end: quota, nameAvailable, eventstreamExists and spend through `moor plan` and
// `moor apply`, the built CLI against a standalone local cloud over HTTP.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARM_PATH, cloudRequest, groupManifest, moor, pages, putBehindMoor, startCloud, SUB, TOKEN, workdir, type Cloud, type RunResult } from './harness.js';
import type { ParsedJson } from '../support/parsed-json.js';

const WORKSPACE = '5d9e2b1c-7a4f-4e3b-9c2d-1f0a8b7c6d5e';

/** A Check manifest; `body` is the YAML of one check type, indented under spec. */
function check(name: string, type: string, body: Record<string, unknown>, severity?: 'error' | 'warning'): string {
  const sev = severity ? `\n  severity: ${severity}` : '';
  return `apiVersion: moor/v1\nkind: Check\nmetadata:\n  name: ${name}\nspec:\n  ${type}: ${JSON.stringify(body)}${sev}\n`;
}
const docs = (...parts: string[]) => parts.join('---\n');

interface CheckView {
  address: string;
  check?: { passed: boolean; severity: string; message: string };
}
/** The JSON document a run printed; a failure names the run's stderr instead of a bare parse error. */
function parseJson(r: RunResult): ParsedJson {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(0, 2000)}`);
  }
}
/** The checks of a `--output json` plan, by address. */
function checksOf(r: RunResult): Record<string, NonNullable<CheckView['check']>> {
  const doc = parseJson(r) as { format: string; changes: CheckView[] };
  expect(doc.format).toBe('moor-plan/1');
  return Object.fromEntries(doc.changes.filter((c) => c.check).map((c) => [c.address, c.check!]));
}

const groupBody = (location: string) => ({
  location,
  properties: { containers: [{ name: 'app', properties: { image: 'nginx', resources: { requests: { cpu: 1, memoryInGB: 1 } } } }] },
});

describe('Check kind', () => {
  let cloud: Cloud;
  const run = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}) => moor(dir, cloud, args, env);

  // The eventstreams workspace limit counts requests in 2 s, not the service's 10: its 429 asks for a second or two.
  beforeAll(async () => {
    cloud = await startCloud({ env: { MOOR_LOCAL_CLOUD_RATE_WINDOW_MS: '2000' } });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('quota passes with room to spare and fails when minFree exceeds what is free, counting the groups the cloud holds', async () => {
    for (const name of ['q-one', 'q-two']) {
      const put = await putBehindMoor(cloud, ARM_PATH(name), groupBody('northeurope'));
      expect(put.status).toBe(201);
    }
    const usage = (
      await pages(cloud, `/subscriptions/${SUB}/providers/Vendor.ContainerInstance/locations/northeurope/usages?api-version=2026-07-01`, 'nextLink')
    ).flat();
    expect(usage.find((u) => u.name.value === 'ContainerGroups')).toMatchObject({ currentValue: 2, limit: 100 });
    const quota = (minFree: number, resource?: string) => ({ subscriptionId: SUB, location: 'northeurope', minFree, ...(resource ? { resource } : {}) });
    const dir = workdir({
      'm/checks.yaml': docs(
        check('room', 'quota', quota(5)),
        check('full', 'quota', quota(99)),
        check('over-limit', 'quota', quota(101)),
        // StandardV100Cores is on the last of the usage pages (2 per page): every page is read.
        check('gpu', 'quota', quota(8, 'StandardV100Cores')),
      ),
    });
    const plan = await run(dir, ['plan', 'm', '--output', 'json']);
    expect(plan.code).toBe(1);
    const checks = checksOf(plan);
    expect(checks['Check/room']).toMatchObject({ passed: true, severity: 'error' });
    expect(checks['Check/room'].message).toContain('2 of 100 used, 98 free');
    expect(checks['Check/full']).toMatchObject({ passed: false, severity: 'error' });
    expect(checks['Check/full'].message).toContain('need at least 99');
    expect(checks['Check/over-limit'].passed).toBe(false);
    expect(checks['Check/gpu']).toMatchObject({ passed: true });
    expect(checks['Check/gpu'].message).toContain('StandardV100Cores');
  });

  test('nameAvailable passes for a free name, fails for a taken one (AlreadyExists), and an upper-case name from the environment is refused before any request', async () => {
    const name = (n: string) => ({ subscriptionId: SUB, name: n });
    const dir = workdir({
      'm/checks.yaml': docs(
        check('free', 'nameAvailable', name('e2e-fresh-server-7')),
        check('taken', 'nameAvailable', name('taken-server')),
        // From the environment: checked by the same rules once resolved, so never sent.
        check('upper', 'nameAvailable', name('${env:SERVER_NAME}')),
      ),
    });
    const plan = await run(dir, ['plan', 'm', '--output', 'json'], { SERVER_NAME: 'My-Server' });
    expect(plan.code).toBe(1);
    const checks = checksOf(plan);
    expect(checks['Check/free']).toMatchObject({ passed: true });
    expect(checks['Check/taken']).toMatchObject({ passed: false, severity: 'error' });
    expect(checks['Check/taken'].message).toContain('AlreadyExists');
    expect(checks['Check/upper']).toBeUndefined();
    expect(plan.stderr).toMatch(/m\/checks\.yaml:\d+:\d+: error: spec\.nameAvailable\.name: .*lower-case.*\(after resolving placeholders\)/);
    expect(plan.stderr).not.toContain('My-Server');
  });

  test('a literal upper-case server name is refused before any request, at its file:line:col', async () => {
    const dir = workdir({ 'm/checks.yaml': check('upper', 'nameAvailable', { subscriptionId: SUB, name: 'My-Server' }) });
    const plan = await run(dir, ['plan', 'm']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/m\/checks\.yaml:\d+:\d+: error: spec\.nameAvailable\.name: .*lower-case/);
    expect(plan.stderr + plan.stdout).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  test('eventstreamExists reads every page: a root item, the last demo item and a newly created item pass; a missing name fails', async () => {
    const created = await cloudRequest(cloud, 'POST', `/v1/workspaces/${WORKSPACE}/eventstreams`, { displayName: 'e2e-late-stream' });
    expect(created.status).toBe(201);
    const listed = await pages(cloud, `/v1/workspaces/${WORKSPACE}/eventstreams`, 'continuationUri');
    expect(listed.length).toBeGreaterThan(2);
    const last = listed.at(-1)!;
    const lastDemo = last.find((i) => i.displayName !== 'e2e-late-stream').displayName as string;
    expect(listed[0].map((i) => i.displayName)).not.toContain(lastDemo);
    expect(last.map((i) => i.displayName)).toContain('e2e-late-stream');
    const total = listed.flat().length;
    const es = (displayName: string) => ({ workspaceId: WORKSPACE, displayName });
    const dir = workdir({
      'm/checks.yaml': docs(
        check('orders', 'eventstreamExists', es('orders-stream')),
        check('last-demo', 'eventstreamExists', es(lastDemo)),
        check('created', 'eventstreamExists', es('e2e-late-stream')),
        check('missing', 'eventstreamExists', es('no-such-stream')),
      ),
    });
    const plan = await run(dir, ['plan', 'm', '--output', 'json']);
    expect(plan.code).toBe(1);
    const checks = checksOf(plan);
    expect(checks['Check/orders'].passed).toBe(true);
    expect(checks['Check/last-demo'].passed).toBe(true);
    expect(checks['Check/created'].passed).toBe(true);
    expect(checks['Check/created'].message).toContain(created.body.id);
    expect(checks['Check/missing']).toMatchObject({ passed: false, severity: 'error' });
    expect(checks['Check/missing'].message).toContain(`among the ${total} eventstreams`);
  });

  test('eventstreamExists waits out the workspace rate limit (429 with Retry-After) and still reads every page', async () => {
    const created = await cloudRequest(cloud, 'POST', `/v1/workspaces/${WORKSPACE}/eventstreams`, { displayName: 'e2e-after-429-stream' });
    expect(created.status).toBe(201);
    // Spend the workspace's request budget until the service answers 429 (plain fetch: no retries).
    let limited = false;
    for (let i = 0; i < 200 && !limited; i++) {
      const res = await fetch(`${cloud.url}/v1/workspaces/${WORKSPACE}/eventstreams`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await res.text();
      limited = res.status === 429;
      if (limited) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(limited).toBe(true);
    const dir = workdir({ 'm/check.yaml': check('late', 'eventstreamExists', { workspaceId: WORKSPACE, displayName: 'e2e-after-429-stream' }) });
    const plan = await run(dir, ['plan', 'm', '--output', 'json']);
    expect(plan.code).toBe(0);
    expect(checksOf(plan)['Check/late'].passed).toBe(true);
  }, 60_000);

  test('a check the service cannot answer (unknown invoice) fails the plan with the service error, never a stack trace', async () => {
    const dir = workdir({
      'm/check.yaml': check('gone', 'spend', { billingAccountName: '12345678', invoiceName: 'G099999999', max: { value: 10, currency: 'USD' } }, 'warning'),
    });
    const plan = await run(dir, ['plan', 'm']);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain('Check/gone');
    expect(plan.stdout + plan.stderr).toContain('InvoiceNotFound');
    expect(plan.stdout + plan.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  test('spend sums every page of the invoice per currency: above the total passes, below fails naming the total', async () => {
    const txs = (
      await pages(cloud, '/providers/Vendor.Billing/billingAccounts/12345678/invoices/G012345678/transactions?api-version=2024-04-01&top=50', 'nextLink')
    ).flat();
    expect(txs.length).toBeGreaterThan(100);
    const sum = (cur: string) =>
      txs.filter((t) => t.properties.transactionAmount.currency === cur).reduce((s: number, t) => s + (t.properties.transactionAmount.value as number), 0);
    const usd = sum('USD');
    const eur = sum('EUR');
    expect(eur).toBeGreaterThan(0);
    expect(usd).toBeGreaterThan(eur * 2);
    const spend = (value: number, currency: string) => ({ billingAccountName: '12345678', invoiceName: 'G012345678', max: { value, currency } });
    const dir = workdir({
      'm/checks.yaml': docs(
        check('usd-under', 'spend', spend(Math.ceil(usd) + 1, 'USD')),
        check('usd-over', 'spend', spend(Math.floor(usd / 2), 'USD')),
        // Above the EUR total but below the USD total: passes only if currencies are kept apart.
        check('eur-under', 'spend', spend(Math.ceil((eur + usd) / 2), 'EUR')),
        check('eur-over', 'spend', spend(Math.floor(eur) - 1, 'EUR')),
      ),
    });
    const plan = await run(dir, ['plan', 'm', '--output', 'json']);
    expect(plan.code).toBe(1);
    const checks = checksOf(plan);
    expect(checks['Check/usd-under'].passed).toBe(true);
    expect(checks['Check/usd-over']).toMatchObject({ passed: false, severity: 'error' });
    expect(checks['Check/usd-over'].message).toContain(`${usd.toFixed(2)} USD`);
    expect(checks['Check/usd-over'].message).toContain(`over ${txs.length} transactions`);
    expect(checks['Check/eur-under'].passed).toBe(true);
    expect(checks['Check/eur-over'].passed).toBe(false);
    expect(checks['Check/eur-over'].message).toContain(`${eur.toFixed(2)} EUR of at most`);
  });

  test('a failing error check fails plan and apply with exit 1, and nothing in the set is created', async () => {
    const dir = workdir({
      'm/secret.txt': 's3cret\n',
      'm/group.yaml': groupManifest('gated'),
      'm/check.yaml': check('gate', 'quota', { subscriptionId: SUB, location: 'westeurope', minFree: 101 }),
    });
    const plan = await run(dir, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toMatch(/^\s+FAIL\s+Check\/gate: quota of ContainerGroups in westeurope: .*need at least 101/m);
    const apply = await run(dir, ['apply', 'm', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('check failed');
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('gated'))).status).toBe(404);
    const statePath = join(dir, '.moor/state.json');
    if (existsSync(statePath)) expect(readFileSync(statePath, 'utf8')).not.toContain('ContainerGroup/gated');
  });

  test('a failing warning check is reported, the plan exits 0 (2 with --detailed-exitcode), and apply proceeds', async () => {
    const dir = workdir({
      'm/secret.txt': 's3cret\n',
      'm/group.yaml': groupManifest('warned'),
      'm/check.yaml': check('soft', 'quota', { subscriptionId: SUB, location: 'westeurope', minFree: 101 }, 'warning'),
    });
    const plan = await run(dir, ['plan', 'm']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/^\s+warn\s+Check\/soft: .*need at least 101/m);
    // Deliberately changed: the text showed it a second time, as a `warning: check failed: quota` diagnostic.
    expect(plan.stdout + plan.stderr).not.toMatch(/warning: check failed/);
    expect(plan.stdout.match(/need at least 101/g)).toHaveLength(1);
    expect((await run(dir, ['plan', 'm', '--detailed-exitcode'])).code).toBe(2);
    const jsonRun = await run(dir, ['plan', 'm', '--output', 'json']);
    const json = checksOf(jsonRun);
    expect(json['Check/soft']).toMatchObject({ passed: false, severity: 'warning' });
    // JSON keeps the warning among its diagnostics.
    expect((parseJson(jsonRun) as { diagnostics: { severity: string; message: string }[] }).diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/^check failed: quota/) }),
    );
    const apply = await run(dir, ['apply', 'm', '--auto-approve']);
    expect(apply.code).toBe(0);
    expect(apply.stdout + apply.stderr).toContain('Apply complete: 1 created');
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('warned'))).status).toBe(200);
    // Nothing left to change: the warning alone does not count as a change.
    expect((await run(dir, ['plan', 'm', '--detailed-exitcode'])).code).toBe(0);
  });

  test('check results show in text (ok/FAIL lines), JSON (changes[].check) and markdown', async () => {
    const dir = workdir({
      'm/checks.yaml': docs(
        check('good', 'nameAvailable', { subscriptionId: SUB, name: 'e2e-output-server' }),
        check('bad', 'nameAvailable', { subscriptionId: SUB, name: 'sql-prod' }),
      ),
    });
    const text = await run(dir, ['plan', 'm']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('Checks:');
    expect(text.stdout).toMatch(/^\s+ok\s+Check\/good: name 'e2e-output-server' is available$/m);
    expect(text.stdout).toMatch(/^\s+FAIL\s+Check\/bad: name 'sql-prod' is not available \(AlreadyExists/m);
    expect(text.stdout + text.stderr).toMatch(/m\/checks\.yaml:\d+:\d+: error: check failed: name 'sql-prod'/);

    const json = await run(dir, ['plan', 'm', '--output', 'json']);
    expect(json.code).toBe(1);
    const doc = parseJson(json);
    const good = doc.changes.find((c: CheckView) => c.address === 'Check/good');
    expect(good.action).toBe('no-op');
    expect(good.check).toEqual({ passed: true, severity: 'error', message: "name 'e2e-output-server' is available" });
    expect(doc.changes.find((c: CheckView) => c.address === 'Check/bad').check).toMatchObject({ passed: false, severity: 'error' });
    expect(doc.diagnostics.some((d: { severity: string; message: string }) => d.severity === 'error' && d.message.includes('sql-prod'))).toBe(true);

    const md = await run(dir, ['plan', 'm', '--output', 'markdown']);
    expect(md.code).toBe(1);
    expect(md.stdout).toContain('#### Checks');
    expect(md.stdout).toMatch(/^\| .*ok \| `Check\/good` \| name 'e2e-output-server' is available \|$/m);
    expect(md.stdout).toMatch(/^\| .*FAIL \| `Check\/bad` \| name 'sql-prod' is not available/m);
  });
});

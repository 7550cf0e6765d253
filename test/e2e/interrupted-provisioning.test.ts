// A group left provisioning by an interrupted apply: the next apply follows it to its end before
// what depends on it starts, and records how it ended; a group whose provisioning fails is a failure.
// The cloud reads a test clock and provisioning lasts an hour of it: a group provisions until the test
// moves the clock on, so nothing depends on how fast this machine is.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { testClock } from '../support/test-clock.js';
import { ARM_PATH, cloudRequest, groupManifest, moor, readState, startCloud, startMoor, workdir, type Cloud, type RunResult } from './harness.js';
import { moorProcess } from './processes.js';

const PROVISIONING_MS = 3_600_000;
const WAITING = /ContainerGroup\/\S+: waiting for the service to finish its earlier write/;

/** Until the service has the group; a failure when the run ends first. */
async function untilCreated(cloud: Cloud, group: string, run: Promise<RunResult>): Promise<void> {
  let ended: RunResult | undefined;
  void run.then((r) => {
    ended = r;
  });
  while ((await cloudRequest(cloud, 'GET', ARM_PATH(group))).status !== 200) {
    if (ended) throw new Error(`apply ended before the service had ${group}: ${ended.stdout}${ended.stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts an apply, interrupts it (SIGINT) once the service has the group, and waits for it to stop; `process`: a real signal to a CLI process. */
async function interruptedApply(dir: string, cloud: Cloud, group: string, { process = false } = {}): Promise<RunResult> {
  if (process) {
    const run = moorProcess(dir, cloud, ['apply', 'm', '--auto-approve']);
    await untilCreated(cloud, group, run);
    run.child.kill('SIGINT');
    return run;
  }
  const run = startMoor(dir, cloud, ['apply', 'm', '--auto-approve']);
  await untilCreated(cloud, group, run);
  run.signal('SIGINT');
  return run;
}

const dependent = (name: string, on: string) => groupManifest(name).replace(`  name: ${name}\n`, `  name: ${name}\n  dependsOn: [ContainerGroup/${on}]\n`);

describe('a group left provisioning by an interrupted apply', () => {
  let cloud: Cloud;
  const clock = testClock();
  /**
   * An apply that meets a group still provisioning: once it says it waits, the provisioning ends; each
   * of `creates`, once the service has it, ends its provisioning too.
   */
  const applyEndingTheWait = async (dir: string, creates: readonly string[] = []): Promise<RunResult> => {
    const run = startMoor(dir, cloud, ['apply', 'm', '--auto-approve']);
    await run.written(WAITING);
    clock.advance(PROVISIONING_MS);
    for (const group of creates) {
      await untilCreated(cloud, group, run);
      clock.advance(PROVISIONING_MS);
    }
    return run;
  };
  beforeAll(async () => {
    cloud = await startCloud({ clock, env: { MOOR_PROVISIONING_MS: String(PROVISIONING_MS) } });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('the next plan says it is still provisioning; apply waits for it, records its final outputs, then starts its dependent', async () => {
    const dir = workdir({ 'm/secret.txt': 's', 'm/g.yaml': groupManifest('prov-g'), 'm/d.yaml': dependent('prov-d', 'prov-g') });
    const stopped = await interruptedApply(dir, cloud, 'prov-g', { process: true });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(
      /ContainerGroup\/prov-g: interrupted after \d+\.\ds \(what it sent goes on at the service; the next plan reads where it got to\)/,
    );
    // The summary says it once, as the progress line does (not 'ContainerGroup/prov-g: containerGroups/prov-g: …').
    expect(stopped.stdout).toContain(
      '  ContainerGroup/prov-g: interrupted (what it sent goes on at the service; the next plan reads where it got to); skipped because of it: ContainerGroup/prov-d\n',
    );
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('prov-d'))).status).toBe(404);

    const plan = await moor(dir, cloud, ['plan', 'm', '--output', 'json']);
    const changes = JSON.parse(plan.stdout).changes as { address: string; action: string; reason?: string }[];
    expect(changes.find((c) => c.address === 'ContainerGroup/prov-g')).toMatchObject({
      action: 'no-op',
      reason: expect.stringContaining('still provisioning (provisioningState Pending): apply waits for it'),
    });

    const applied = await applyEndingTheWait(dir, ['prov-d']);
    expect(applied.code, applied.stderr).toBe(0);
    const out = applied.stdout + applied.stderr;
    const finished = out.indexOf('ContainerGroup/prov-g: finished at the service');
    expect(finished).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('ContainerGroup/prov-d: creating')).toBeGreaterThan(finished);
    const state = await readState(dir);
    expect(state.resources['ContainerGroup/prov-g'].pending).toBeUndefined();
    expect(state.resources['ContainerGroup/prov-g'].outputs.properties.provisioningState).toBe('Succeeded');
    expect((await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode'])).code).toBe(0);
  });

  test('interrupting the apply that waits for it: the wait sent no change, and the lines say so', async () => {
    // The clock is not moved while this test runs: the wait is interrupted, never over.
    const dir = workdir({ 'm/secret.txt': 's', 'm/g.yaml': groupManifest('provw-g'), 'm/d.yaml': dependent('provw-d', 'provw-g') });
    expect((await interruptedApply(dir, cloud, 'provw-g')).code).toBe(1);
    const run = startMoor(dir, cloud, ['apply', 'm', '--auto-approve', '--output', 'github']);
    await run.written(/ContainerGroup\/provw-g: waiting for the service to finish its earlier write\.\.\./);
    run.signal('SIGINT');
    const stopped = await run;
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/ContainerGroup\/provw-g: interrupted after \d+\.\ds \(it had sent no change; the next plan reads where things got to\)/);
    expect(stopped.stdout).toContain(
      '  ContainerGroup/provw-g: interrupted (it had sent no change; the next plan reads where things got to); skipped because of it: ContainerGroup/provw-d\n',
    );
    // The annotation says it as the lines do, not the wait's raw error ('… it goes on at the service …').
    expect(stopped.stdout).toContain('::warning::ContainerGroup/provw-g: interrupted (it had sent no change; the next plan reads where things got to)\n');
    expect(stopped.stdout).not.toContain('goes on at the service');
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('provw-d'))).status).toBe(404);
  });

  test('a group whose provisioning ends Failed fails that apply, and its dependent is skipped', async () => {
    const dir = workdir({
      'm/secret.txt': 's',
      'm/g.yaml': groupManifest('provf-g', { image: 'nginx-moor-fail-provisioning:1' }),
      'm/d.yaml': dependent('provf-d', 'provf-g'),
    });
    expect((await interruptedApply(dir, cloud, 'provf-g')).code).toBe(1);
    const applied = await applyEndingTheWait(dir);
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).toMatch(/ContainerGroup\/provf-g: .*ended Failed.*\(skipped because of it: ContainerGroup\/provf-d\)/);
    // The wait that ended Failed is a failed write: the closing line counts it.
    expect(applied.stdout).toContain('Apply incomplete: 0 created, 0 updated, 0 replaced, 0 deleted, 0 run; 1 failed (ContainerGroup/provf-g); 1 skipped.');
    expect((await cloudRequest(cloud, 'GET', ARM_PATH('provf-d'))).status).toBe(404);
    // Ended Failed, it stays a failure (not taken as applied) until it is written again.
    const plan = await moor(dir, cloud, ['plan', 'm']);
    expect(plan.stdout).toContain('warning: ContainerGroup/provf-g: its provisioning ended Failed: apply reports it failed and skips what depends on it');
    const again = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/ContainerGroup\/provf-g: .*ended Failed.*\(skipped because of it: ContainerGroup\/provf-d\)/);
    expect(again.stdout).toContain('; 1 failed (ContainerGroup/provf-g); 1 skipped.');
  });
});

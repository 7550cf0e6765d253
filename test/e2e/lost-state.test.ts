// A missing or wrong --state while the manifests' resources exist live (the usual first run of a
// cron on a fresh runner, or a CI job pointed at the wrong state): drift must not say "No drift",
// and plan/apply must not run jobs again or create duplicates until imported or confirmed.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_PATH,
  ENV,
  WORKSPACE,
  authManifest,
  cloudRequest,
  datasetIdsNamed,
  datasetManifest,
  exportManifest,
  moor,
  operationsOf,
  startCloud,
  workdir,
  type Cloud,
} from './harness.js';

describe("state missing while the manifests' resources exist live", () => {
  let cloud: Cloud;
  let dir: string;
  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({
      'm/auth.yaml': authManifest('c7', { displayName: 'Seven' }),
      'm/export.yaml': exportManifest('golden', { backupName: 'golden-r1', revision: 'r1' }),
      'm/dataset.yaml': datasetManifest('sales'),
    });
    const applied = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it('drift with a missing state file fails (exit 1) saying it cannot compare, even after a live change, never "No drift"', async () => {
    expect((await cloudRequest(cloud, 'PATCH', AUTH_PATH('c7'), { displayName: 'changed by hand' })).status).toBeLessThan(300);
    const text = await moor(dir, cloud, ['drift', 'm', '--state', 'fresh-runner/state.json']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      'state fresh-runner/state.json holds no resources (missing or empty): drift compares live resources with the last apply and has nothing to compare the 3 manifests with',
    );
    expect(text.stdout).toContain('AuthContext/c7: exists live but is not in state');
    expect(text.stdout).not.toContain('No drift');
    expect(text.stdout.trim().split('\n').at(-1)).toMatch(/^Drift check failed: /);
    const md = await moor(dir, cloud, ['drift', 'm', '--state', 'fresh-runner/state.json', '--output', 'markdown']);
    expect(md.code).toBe(1);
    expect(md.stdout).not.toContain('No drift');
    // With the right state the same change is found as drift.
    const right = await moor(dir, cloud, ['drift', 'm']);
    expect(right.code).toBe(2);
  }, 120_000);

  it('plan and apply with the wrong state refuse the job run and the duplicate create, pointing at moor import', async () => {
    const plan = await moor(dir, cloud, ['plan', 'm', '--state', 'wrong.json']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      'warning: state has no record of AuthContext/c7, which exists live: state is missing, empty or not the one these manifests were applied with',
    );
    expect(plan.stdout).toMatch(
      /m\/export\.yaml:\d+:\d+: error: DatabaseExport\/golden: state has no record of it while other resources of these manifests exist live, so this run may have happened already; point --state at the state it was applied with, or give --allow-untracked if it is meant to run/,
    );
    expect(plan.stdout).toContain(
      "PushDataset/sales: state has no record of it while other resources of these manifests exist live, so creating it may make a second one beside the one made before; import the one that exists ('moor import PushDataset/sales ID')",
    );
    const apply = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--state', 'wrong.json']);
    expect(apply.code).toBe(1);
    expect(await operationsOf(cloud, ENV.test)).toHaveLength(1);
    expect(await datasetIdsNamed(cloud, 'sales')).toHaveLength(1);
  });

  it('--allow-untracked confirms: the run and the create go ahead, and a saved plan records it', async () => {
    const saved = await moor(dir, cloud, ['plan', 'm', '--state', 'confirmed.json', '--allow-untracked', '--out', 'p.json']);
    expect(saved.code, saved.stdout + saved.stderr).toBe(0);
    expect(saved.stdout).toContain('warning: state has no record of AuthContext/c7');
    const apply = await moor(dir, cloud, ['apply', '--plan', 'p.json', '--state', 'confirmed.json']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(await operationsOf(cloud, ENV.test)).toHaveLength(2);
    expect(await datasetIdsNamed(cloud, 'sales')).toHaveLength(2);
  });
});

describe('a lone dataset whose state is lost', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it('is looked up by its name in its workspace: apply refuses a second create, naming moor import with its id; --allow-untracked confirms one', async () => {
    const dir = workdir({ 'm/dataset.yaml': datasetManifest('lone') });
    const first = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const [id] = await datasetIdsNamed(cloud, 'lone');
    rmSync(join(dir, '.moor/state.json'));

    const again = await moor(dir, cloud, ['apply', 'm', '--auto-approve']);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(
      new RegExp(
        `m/dataset\\.yaml:\\d+:\\d+: error: PushDataset/lone: state has no record of it, but workspace ${WORKSPACE} already has a dataset named 'lone' \\(${id}\\), so creating it would make a second one`,
      ),
    );
    expect(again.stdout).toContain(`adopt the one that exists with 'moor import PushDataset/lone ${id}', or give --allow-untracked if another one is meant`);
    expect(await datasetIdsNamed(cloud, 'lone')).toEqual([id]);
    expect((await moor(dir, cloud, ['plan', 'm'])).code).toBe(1);

    // Adopted as the message says: nothing left to create.
    const imported = await moor(dir, cloud, ['import', 'PushDataset/lone', id, 'm']);
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    const plan = await moor(dir, cloud, ['plan', 'm', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(await datasetIdsNamed(cloud, 'lone')).toEqual([id]);

    rmSync(join(dir, '.moor/state.json'));
    const confirmed = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--allow-untracked']);
    expect(confirmed.code, confirmed.stdout + confirmed.stderr).toBe(0);
    expect(confirmed.stdout + confirmed.stderr).toContain('--allow-untracked creates another one beside it');
    expect(await datasetIdsNamed(cloud, 'lone')).toHaveLength(2);
  }, 120_000);
});

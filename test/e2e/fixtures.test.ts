// Fixtures: a team's own database-movement project, quotas, workspaces and conversations, from
// `moor local-cloud --fixtures FILE` or `localCloud: {fixtures: FILE}` for the in-process cloud.
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cloudRequest, moor, startCloud, SUB, workdir, type Cloud } from './harness.js';

const PROJECT = '7654321';
const ENVS = { prod: '0f1e2d3c-0000-4000-8000-00000000000a', uat: '0f1e2d3c-0000-4000-8000-00000000000b', test: '0f1e2d3c-0000-4000-8000-00000000000c' };
const WORKSPACE = '0c0ffee0-1234-4abc-8def-0123456789ab';

const FIXTURES = `databaseMovement:
  projects:
    - id: "${PROJECT}"
      environments:
        - {id: ${ENVS.prod}, name: prod, type: Production}
        - {id: ${ENVS.uat}, name: uat, type: Sandbox}
        - {id: ${ENVS.test}, name: test, type: Sandbox}
quotas:
  - {subscriptionId: ${SUB}, location: West Europe, containerGroups: 7, standardCores: 12}
workspaces:
  - id: ${WORKSPACE}
    displayName: team
    eventstreams: [{displayName: team-orders}]
conversations:
  - id: "19:team-deploys"
    topicName: team-deploys
    members: [{id: "29:alex", name: Alex}]
`;

const JOBS = `apiVersion: moor/v1
kind: DatabaseRefresh
metadata:
  name: uat-from-prod
spec:
  projectId: "${PROJECT}"
  sourceEnvironmentId: ${ENVS.prod}
  targetEnvironmentId: ${ENVS.uat}
  revision: "1"
---
apiVersion: moor/v1
kind: DatabaseExport
metadata:
  name: test-golden
spec:
  projectId: "${PROJECT}"
  environmentId: ${ENVS.test}
  backupName: golden-1
  revision: "1"
`;

describe('fixtures', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('moor local-cloud --fixtures: refresh and export jobs of a declared project apply; quotas, workspaces and conversations are there', async () => {
    const dir = workdir({ 'fixtures.yaml': FIXTURES, 'm/jobs.yaml': JOBS });
    const c = (cloud = await startCloud({ args: ['--fixtures', join(dir, 'fixtures.yaml')] }));
    const apply = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    for (const env of [ENVS.uat, ENVS.test]) {
      const ops = await cloudRequest(c, 'GET', `/databasemovement/v1/_local/environment/${env}/operations`);
      expect(ops.body.operations.map((o: { status: string }) => o.status)).toEqual(['Completed']);
    }
    const usage = await cloudRequest(c, 'GET', `/subscriptions/${SUB}/providers/Vendor.ContainerInstance/locations/westeurope/usages?api-version=2026-07-01`);
    expect(usage.body.value.slice(0, 2).map((u: { limit: number }) => u.limit)).toEqual([7, 12]);
    const streams = await cloudRequest(c, 'GET', `/v1/workspaces/${WORKSPACE}/eventstreams`);
    expect(streams.body.value.map((e: { displayName: string }) => e.displayName)).toEqual(['team-orders']);
    const members = await cloudRequest(c, 'GET', `/v3/conversations/${encodeURIComponent('19:team-deploys')}/members`);
    expect(members.body).toEqual([{ id: '29:alex', name: 'Alex' }]);
    // The demo data stays.
    expect((await cloudRequest(c, 'GET', '/databasemovement/v1/_local/environment/a1b2c3d4-0000-4000-8000-000000000002/operations')).status).toBe(200);
  });

  test('localCloud.fixtures in moor.config.yaml serves the in-process cloud', async () => {
    const dir = workdir({ 'conf/fixtures.yaml': FIXTURES, 'moor.config.yaml': 'localCloud:\n  fixtures: conf/fixtures.yaml\n', 'm/jobs.yaml': JOBS });
    const apply = await moor(dir, undefined, ['apply', 'm', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout + apply.stderr).not.toMatch(/not found/i);
  });

  test('a bad fixtures file stops the start with a message naming the field', async () => {
    const dir = workdir({ 'fixtures.yaml': 'databaseMovement:\n  projects:\n    - id: "1"\n      environments: [{id: nope, type: Sandbox}]\n' });
    await expect(startCloud({ args: ['--fixtures', join(dir, 'fixtures.yaml')] })).rejects.toThrow(/exited/);
    const run = await moor(dir, undefined, ['local-cloud', '--port', '0', '--fixtures', 'fixtures.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('databaseMovement.projects[0].environments[0].id must be a UUID');
  });
});

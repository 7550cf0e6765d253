// A stack folder holds moor.config.yaml (and a local-cloud fixtures file it names) beside the
// manifests; the commands' default path is '.', and the composite action runs there: moor's own
// configuration files are not manifests and must not fail validate, graph or plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupManifest, moor, startCloud, workdir, type Cloud } from './harness.js';

const FIXTURES = `quotas:
  - {subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11, location: westeurope, containerGroups: 20, standardCores: 40}
`;

function stack(config: Record<string, string>): string {
  return workdir({ ...config, 'manifests/web.yaml': groupManifest('web'), 'manifests/secret.txt': 's3cret-value' });
}

describe('moor configuration files found under the manifest paths', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it('validate and graph of . skip moor.config.yaml and the fixtures file it names', async () => {
    const dir = stack({ 'moor.config.yaml': 'parallelism: 4\nlocalCloud: {fixtures: local-fixtures.yaml}\n', 'local-fixtures.yaml': FIXTURES });
    const validated = await moor(dir, undefined, ['validate']);
    expect(validated.stdout + validated.stderr).not.toContain('moor.config.yaml');
    expect(validated.stdout + validated.stderr).not.toContain('local-fixtures.yaml');
    expect(validated.code).toBe(0);
    expect(validated.stdout).toContain('ok: 1 manifest in 1 file');
    const graph = await moor(dir, undefined, ['graph']);
    expect(graph.stderr).toBe('');
    expect(graph.code).toBe(0);
  });

  it('plan of . skips a config given with --config inside the folder (also a .yml)', async () => {
    const dir = stack({ 'conf/prod.yml': 'parallelism: 4\n', 'moor.config.yml': 'parallelism: 2\n' });
    const planned = await moor(dir, cloud, ['plan', '--config', 'conf/prod.yml', '--detailed-exitcode']);
    expect(planned.stderr).not.toContain('prod.yml');
    expect(planned.stderr).not.toContain('moor.config.yml');
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('ContainerGroup/web will be created');
  });

  it('a config file named on the command line as a manifest path is still read as one (and refused)', async () => {
    const dir = stack({ 'moor.config.yaml': 'parallelism: 4\n' });
    const validated = await moor(dir, undefined, ['validate', 'moor.config.yaml']);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain('moor.config.yaml:1:1: error');
  });
});

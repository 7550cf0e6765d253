// One YAML mistake is one diagnostic: the parser's follow-on "unexpected token" errors are its
// consequences and are left out, in text and in GitHub annotations, with a hint for the usual cause.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

const FLOW_PLACEHOLDER = `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: web
spec:
  subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11
  resourceGroup: rg-web
  location: westeurope
  properties:
    osType: Linux
    containers:
      - name: web
        properties:
          image: nginx:1.27
          resources: {requests: {cpu: 1, memoryInGB: 1.5}}
          environmentVariables:
            - {name: DB_PASSWORD, secureValue: \${env:DB_PASSWORD}}
            - {name: MODE, value: prod}
            - {name: LEVEL, value: debug}
`;

describe('a YAML syntax error', () => {
  it('is reported once, where it is, with a hint to quote a placeholder in a flow mapping; other files still validate', async () => {
    const dir = workdir({
      'm/web.yaml': FLOW_PLACEHOLDER,
      'm/c1.yaml': authManifest('c1', { displayName: 'One', isAvailable: 'maybe' as unknown as boolean }),
    });
    const text = await moor(dir, undefined, ['validate', 'm']);
    expect(text.code).toBe(1);
    const errors = text.stdout.split('\n').filter((l) => l.includes('web.yaml'));
    expect(errors).toEqual([
      'm/web.yaml:17:49: error: invalid YAML: Unexpected flow-map-start at node end; quote the placeholder inside { } or [ ]: "${env:DB_PASSWORD}"',
    ]);
    expect(text.stdout).toMatch(/m\/c1\.yaml:\d+:\d+: error: /);

    const github = await moor(dir, undefined, ['validate', 'm', '--output', 'github'], { GITHUB_STEP_SUMMARY: join(dir, 'summary.md') });
    expect(github.stdout.split('\n').filter((l) => l.startsWith('::error file=m/web.yaml'))).toHaveLength(1);
  });
});

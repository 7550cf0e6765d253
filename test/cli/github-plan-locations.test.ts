// --output github: a plan diagnostic that names a resource (a quota preflight) is annotated at its
// manifest, so GitHub marks the file; the text keeps naming the resource.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { groupManifest, moor, workdir, SUB } from '../e2e/harness.js';

const NO_ROOM = `quotas:\n  - {subscriptionId: ${SUB}, location: westeurope, containerGroups: 0}\n`;

describe('plan diagnostics placed at their manifest', () => {
  test('a quota preflight error is annotated at the metadata.name line of the manifest', async () => {
    const dir = workdir({
      'moor.config.yaml': 'localCloud: {fixtures: no-room.yaml}\n',
      'no-room.yaml': NO_ROOM,
      'm/web.yaml': groupManifest('web'),
      'm/secret.txt': 's',
    });
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const r = await moor(dir, undefined, ['plan', 'm', '--output', 'github'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error file=m\/web\.yaml,line=4,col=9::ContainerGroup\/web: quota exceeded in westeurope/m);
    expect(r.stdout).toMatch(/^m\/web\.yaml:4:9: error: ContainerGroup\/web: quota exceeded in westeurope/m);
  });
});

// A change a policy refuses is counted as refused — not tried, so not failed — by every report of
// the apply: the closing line, jsonl's apply_summary and the history.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moor, ROOT, startCloud, workdir, type Cloud } from './harness.js';

describe('a change refused by policy', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('is "1 refused", never "1 failed", in the closing line, apply_summary and the history', async () => {
    const dir = workdir();
    cpSync(join(ROOT, 'examples/stacks'), dir, { recursive: true });
    const first = await moor(dir, cloud, ['apply', '--stack', 'dev', '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);
    const web = join(dir, 'base/web.yaml');
    writeFileSync(web, readFileSync(web, 'utf8').replace('registry.example.net/nginx', 'nginx'));

    const text = await moor(dir, cloud, ['apply', '--stack', 'dev', '--auto-approve']);
    expect(text.code).toBe(1);
    // The plan apply prints first names the refused change among its counts, as the closing line counts it.
    expect(text.stdout + text.stderr).toContain('stack dev: Plan: 0 to create, 1 to update, 0 to replace, 0 to delete, 0 to run; 1 of them refused.');
    const closing = (text.stdout + text.stderr).split('\n').find((l) => l.includes('Apply incomplete'));
    expect(closing).toBe('stack dev: Apply incomplete: 0 created, 0 updated, 0 replaced, 0 deleted, 0 run; 1 refused (ContainerGroup/web).');

    const jsonl = await moor(dir, cloud, ['apply', '--stack', 'dev', '--auto-approve', '--output', 'jsonl']);
    const summary = jsonl.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.type === 'apply_summary');
    expect(summary).toMatchObject({ status: 'incomplete', failed: 0, refused: 1 });

    const history = await moor(dir, cloud, ['history', '--stack', 'dev', '--output', 'json']);
    const [latest] = (JSON.parse(history.stdout) as { runs: { counts: Record<string, number> }[] }).runs;
    expect(latest.counts).toMatchObject({ failed: 0, refused: 1 });
    const historyText = await moor(dir, cloud, ['history', '--stack', 'dev']);
    expect(historyText.stdout).toContain('0 created, 0 updated, 0 replaced, 0 deleted, 0 run, 1 refused\n');
  });
});

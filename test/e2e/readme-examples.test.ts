// The documentation's examples run as written, so they cannot drift from the program: README's quick
// start (against the built-in local cloud, in a copy of the examples) and docs/state.md's `moor outputs`
// example after it.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLOUD_PACE, moor, ROOT, workdir } from './harness.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const STATE_GUIDE = readFileSync(join(ROOT, 'docs', 'state.md'), 'utf8');

/** The `npx moor …` commands of the first sh block after a heading, continuation lines joined, comments cut. */
function commandsUnder(heading: string): string[][] {
  const section = README.slice(README.indexOf(heading));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1].replace(/\\\n\s*/g, ' ');
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.includes('npx moor'))
    .map((l) =>
      l
        .slice(l.indexOf('npx moor') + 'npx moor'.length)
        .trim()
        .split(/\s+/),
    );
}

describe('README examples', () => {
  it("the quick start runs as written, and the outputs example prints the group's IP", async () => {
    const dir = workdir();
    cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
    const quickStart = commandsUnder('## Quick start');
    expect(quickStart.map((c) => c[0])).toEqual(['apply', 'plan']);
    for (const args of quickStart) {
      // The built-in cloud at a test cloud's pace (provisioning and job phases of 100 ms, not a second).
      const r = await moor(dir, undefined, args, { MOOR_ENDPOINT: '', MOOR_TOKEN: '', ...CLOUD_PACE });
      expect(r.code, `moor ${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
    }
    const example = /`IP=\$\(moor (outputs [^)]+)\)`/.exec(STATE_GUIDE)![1].split(/\s+/);
    const ip = await moor(dir, undefined, example, CLOUD_PACE);
    expect(ip.code, ip.stderr).toBe(0);
    expect(ip.stdout.trim()).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  }, 300_000);
});

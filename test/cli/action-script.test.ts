// What the composite action (action.yml) installs, and what a clone that was never built says. Its
// step's script, run as GitHub runs it with the runner's variables, is action-pipeline.test.ts's
// (its validation report, plan, --config and validate cases were here; they share that file's runs).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { ROOT, workdir } from '../e2e/harness.js';

interface ActionStep {
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

describe('what the action installs', () => {
  const all = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: ActionStep[] } }).runs.steps;

  test("only the run-time dependencies, through the install script, cached under a key of moor's sources", () => {
    const runs = all.map((st) => st.run ?? '').join('\n');
    expect(runs).not.toMatch(/npm (ci|install)/);
    expect(runs).toContain('scripts/action-install.sh" install');
    const cache = all.find((st) => st.uses?.startsWith('actions/cache@'))!;
    expect(cache.with!.path).toContain('node_modules');
    expect(cache.with!.path).toContain('dist');
    expect(cache.with!.key).toBe('${{ steps.runtime.outputs.key }}');
    const installer = readFileSync(join(ROOT, 'scripts/action-install.sh'), 'utf8');
    expect(installer).toMatch(/npm ci --omit=dev --ignore-scripts/);
    const dir = workdir();
    const output = join(dir, 'output.txt');
    writeFileSync(output, '');
    const r = spawnSync('bash', [join(ROOT, 'scripts/action-install.sh'), 'key'], { encoding: 'utf8', env: { ...process.env, GITHUB_OUTPUT: output } });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(output, 'utf8')).toMatch(/^key=moor-runtime-\w+-node\d+-[0-9a-f]{16}\n$/);
  });

  test('a clone that was never built says so in one line, never a stack trace', () => {
    const dir = workdir();
    mkdirSync(join(dir, 'bin'));
    for (const file of ['bin/moor.js', 'bin/built-cli.js']) copyFileSync(join(ROOT, file), join(dir, file));
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
    const r = spawnSync(process.execPath, [join(dir, 'bin/moor.js'), '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^moor is not built: \S+\/dist\/ is missing; run 'npm ci' \(or 'npm run build'\)/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});

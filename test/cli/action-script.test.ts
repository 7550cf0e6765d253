// The composite action (action.yml) run as GitHub runs its step: its bash script with the runner's
// variables, against the built CLI. Its outputs feed a pull-request comment, so the markdown file
// must exist and hold the report that decided the step, a validation failure included.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { authManifest, ROOT, workdir, INVALID_AUTH_CONTEXT } from '../e2e/harness.js';

interface ActionStep {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}

const steps = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: ActionStep[] } }).runs.steps;
const script = steps.find((s) => s.id === 'run')!.run!;

/** Runs the step's script; not spawnSync, which would block the worker (and vitest's RPC to it) on a loaded machine. */
async function runAction(
  dir: string,
  command: string,
  paths = 'm',
  args = '',
): Promise<{ code: number; outputs: Record<string, string>; markdown: string | undefined }> {
  const files = { summary: join(dir, 'summary.md'), output: join(dir, 'output.txt') };
  writeFileSync(files.summary, '');
  writeFileSync(files.output, '');
  const child = spawn('bash', ['-c', script], {
    cwd: dir,
    stdio: 'ignore',
    env: {
      ...process.env,
      NO_COLOR: '1',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      MOOR_POLL_INTERVAL_MS: '50',
      GITHUB_ACTION_PATH: ROOT,
      RUNNER_TEMP: dir,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.output,
      ACTION_COMMAND: command,
      ACTION_PATHS: paths,
      ACTION_ARGS: args,
      ACTION_PLAN_FILE: 'moor-plan.json',
    },
  });
  const status = await new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  const outputs = Object.fromEntries(
    readFileSync(files.output, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  const markdown = outputs.markdown && existsSync(outputs.markdown) ? readFileSync(outputs.markdown, 'utf8') : undefined;
  return { code: status ?? -1, outputs, markdown };
}

describe('the composite action', () => {
  test('a pull request with a validation error: the step fails and the markdown output is the validation report', async () => {
    const dir = workdir({ 'm/bad.yaml': INVALID_AUTH_CONTEXT });
    const r = await runAction(dir, 'plan');
    expect(r.code).toBe(1);
    expect(r.outputs.exitcode).toBe('1');
    expect(r.markdown).toBeDefined();
    expect(r.markdown).toContain('### moor validate');
    expect(r.markdown).toContain('m/bad.yaml:6:16: error');
  });

  test('a plan with changes: exit code 2 does not fail the step and the markdown is the plan alone', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const r = await runAction(dir, 'plan');
    expect(r.code).toBe(0);
    expect(r.outputs.exitcode).toBe('2');
    expect(r.markdown).toContain('### moor plan');
    expect(r.markdown).not.toContain('### moor validate');
    expect(existsSync(join(dir, 'moor-plan.json'))).toBe(true);
  });

  test('a config given in args (--config) reaches validate too, which then does not read it as a manifest', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'conf/prod.yml': 'parallelism: 4\n' });
    for (const args of ['--config conf/prod.yml', '--config=conf/prod.yml']) {
      const r = await runAction(dir, 'plan', '.', args);
      expect(r.outputs.exitcode, args).toBe('2');
      expect(r.markdown).toContain('### moor plan');
    }
  });

  test('command validate: the markdown output is the validation report', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const r = await runAction(dir, 'validate');
    expect(r.code).toBe(0);
    expect(r.outputs.exitcode).toBe('0');
    expect(r.markdown).toContain('### moor validate');
  });
});

describe('what the action installs', () => {
  const all = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: (ActionStep & { uses?: string; with?: Record<string, string> })[] } })
    .runs.steps;

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

// The guides' shell examples run as written (against the built-in local cloud, in a copy of the
// examples), so a guide cannot show a command the program no longer takes: the stacks guide's
// commands and worked example, the drift guide's accept, discover, the editor-support schema, the
// pipeline without the action, the `moor get` lookups, the standalone local cloud over http, and the
// guides' configuration samples.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLOUD_PACE, LISTENING, moor, ROOT, startMoor, workdir } from './harness.js';

/**
 * The built-in local cloud: no endpoint or token from the test's environment; at a test cloud's pace (its
 * provisioning and job phases take 100 ms, not the default second: what the examples do is the same).
 */
const BUILT_IN = { MOOR_ENDPOINT: '', MOOR_TOKEN: '', ...CLOUD_PACE };

/** No MOOR_* variable of the test's environment (a standalone cloud reads its port, token and data from them). */
const NO_MOOR_ENV: NodeJS.ProcessEnv = Object.fromEntries(
  Object.keys(process.env)
    .filter((k) => k.startsWith('MOOR_'))
    .map((k) => [k, undefined]),
);

/** The sh blocks of a guide after `marker` (its first `count`), continuation lines joined, comments cut. */
function shLines(page: string, marker: string, count = 1): string[] {
  const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
  const at = text.indexOf(marker);
  expect(at, `${page}: ${marker}`).toBeGreaterThanOrEqual(0);
  const blocks = [...text.slice(at).matchAll(/```sh\n([\s\S]*?)```/g)].slice(0, count).map((m) => m[1]);
  return blocks
    .join('')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/(^|\s+)#.*$/, '').trim())
    .filter(Boolean);
}

/** `npx moor ARGS &`: a server an example starts in the background, and its arguments. */
function backgroundArgs(line: string): string[] {
  const m = /^npx moor (.+) &$/.exec(line);
  if (!m) throw new Error(`not a moor started in the background: ${line}`);
  return m[1].split(/\s+/);
}

/** `VAR=value ... npx moor ARGS`: the variables the line sets and moor's arguments. */
function withVariables(line: string): { env: Record<string, string>; args: string[] } {
  const words = line.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  if (words.shift() !== 'npx' || words.shift() !== 'moor') throw new Error(`not an npx moor line: ${line}`);
  return { env, args: words };
}

/** The first yaml block of a guide after `marker`. */
function yamlBlock(page: string, marker: string): string {
  const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
  const at = text.indexOf(marker);
  expect(at, `${page}: ${marker}`).toBeGreaterThanOrEqual(0);
  return /```yaml\n([\s\S]*?)```/.exec(text.slice(at))![1];
}

/**
 * Runs a line of `cd DIR`, `[npx] moor ARGS [> FILE]` parts joined by `&&`, in `dir` (a `cd` moves the
 * rest); each moor run must exit `expected`. Anything else in a line is refused, so a new kind of
 * example needs this test taught, not skipped. Returns the last run's output.
 */
async function run(dir: string, line: string, expected = 0): Promise<{ dir: string; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  for (const part of line.split('&&').map((p) => p.trim())) {
    const cd = /^cd (\S+)$/.exec(part);
    if (cd) {
      dir = join(dir, cd[1]);
      continue;
    }
    const command = /^(?:npx )?moor (.*?)(?: > (\S+))?$/.exec(part);
    if (!command) throw new Error(`an example this test cannot run: ${part}`);
    const args = command[1]
      .replace(/\[[^\]]*\]/g, '')
      .match(/"[^"]*"|\S+/g)!
      .map((a) => a.replace(/^"|"$/g, ''));
    const r = await moor(dir, undefined, args, BUILT_IN);
    expect(r.code, `moor ${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(expected);
    if (command[2]) writeFileSync(join(dir, command[2]), r.stdout);
    stdout = r.stdout;
    stderr = r.stderr;
  }
  return { dir, stdout, stderr };
}

describe("the guides' examples", () => {
  it('stacks: validate, plan and apply a stack, then the worked example of examples/stacks; drift --accept --dry-run after it', async () => {
    const dir = workdir();
    cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
    const stacks = join(dir, 'examples', 'stacks');
    const commands = shLines('stacks.md', '```sh\nnpx moor validate --stack dev');
    expect(commands.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual([
      'npx moor validate',
      'npx moor validate',
      'npx moor plan',
      'npx moor plan',
      'npx moor apply',
    ]);
    for (const line of commands) await run(stacks, line);
    expect(readFileSync(join(stacks, 'plan.md'), 'utf8')).toContain('stack prod');

    const [worked] = shLines('stacks.md', 'is a worked example');
    const last = await run(dir, worked);
    expect(last.stdout).toMatch(/stack prod: Plan: 0 to create, 0 to update/);

    const [dryRun] = shLines('drift.md', '**Accept**');
    expect(dryRun).toContain('--accept --dry-run');
    await run(stacks, dryRun);
  }, 300_000);

  it('discover: what the example manifests made live (applied with another state) is adopted as written; validate is clean and plan has nothing to do', async () => {
    const dir = workdir();
    cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
    const made = await moor(
      dir,
      undefined,
      ['apply', 'examples/manifests', '--auto-approve', '--allow-destructive', 'DatabaseRefresh/uat-from-prod', '--state', 'elsewhere.json'],
      BUILT_IN,
    );
    expect(made.code, made.stderr).toBe(0);
    const [discover, validate, plan] = shLines('discover.md', '## `moor discover`');
    expect(discover).toMatch(/^npx moor discover .* --import$/);
    expect((await run(dir, discover)).stdout).toMatch(/Imported 3 resources into state/);
    const checked = await run(dir, validate);
    expect(checked.stdout).toMatch(/^ok: 3 manifests in 2 files are valid$/m);
    expect(checked.stdout + checked.stderr).not.toMatch(/warning/);
    expect((await run(dir, plan)).stdout).toMatch(/Plan: 0 to create, 0 to update, 0 to replace, 0 to delete, 0 to run\./);
  }, 300_000);

  it("editor support: moor schema writes the manifests' JSON Schema", async () => {
    const dir = workdir();
    const [line] = shLines('manifests.md', '## Editor support');
    await run(dir, line);
    const schema = JSON.parse(readFileSync(join(dir, 'moor.schema.json'), 'utf8')) as { $schema?: string };
    expect(schema.$schema).toMatch(/json-schema/);
  });

  it('a pipeline without the action: validate, a saved plan as markdown, apply --plan', async () => {
    const dir = workdir({ 'manifests/ctx.yaml': 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: Docs\n' });
    const lines = shLines('pipelines.md', 'Without the action');
    expect(lines).toHaveLength(3);
    for (const line of lines) await run(dir, line);
    expect(readFileSync(join(dir, 'plan.md'), 'utf8')).toContain('AuthContext/c1');
    expect((await moor(dir, undefined, ['plan', 'manifests/', '--detailed-exitcode'], BUILT_IN)).code).toBe(0);
  }, 120_000);

  it('the pipeline recipe without stacks is the flow the action tests run: plan saved as an artifact on the pull request, applied exactly on merge, one apply at a time', () => {
    interface Step {
      uses?: string;
      with?: Record<string, unknown>;
    }
    const workflow = parse(yamlBlock('pipelines.md', '## A pipeline')) as { jobs: Record<string, { concurrency?: unknown; steps: Step[] }> };
    const step = (job: string, uses: string) => workflow.jobs[job].steps.find((s) => s.uses?.includes(uses))!.with!;
    expect(step('plan', '/moor@main')).toMatchObject({ paths: 'manifests/', comment: true });
    expect(step('plan', 'upload-artifact')).toEqual({ name: 'moor-plan', path: 'moor-plan.json' });
    expect(step('apply', 'download-artifact')).toMatchObject({ name: 'moor-plan' });
    expect(step('apply', '/moor@main')).toMatchObject({ command: 'apply', comment: true });
    expect(workflow.jobs.apply.concurrency).toEqual({ group: 'moor-apply', 'cancel-in-progress': false });
  });

  it("the configuration guide's and the stacks guide's moor.config.yaml are valid configurations; the fixtures sample loads into the built-in cloud", async () => {
    const manifest = 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: Docs\n';
    const configured = workdir({ 'moor.config.yaml': yamlBlock('configuration.md', '# Configuration'), 'manifests/ctx.yaml': manifest });
    await run(configured, 'moor validate manifests');
    const stacks = workdir({ 'moor.config.yaml': yamlBlock('stacks.md', '# Stacks'), 'manifests/ctx.yaml': manifest });
    await run(stacks, 'moor validate --all-stacks');
    const fixtures = workdir({
      'moor.config.yaml': 'localCloud: {fixtures: fixtures.yaml}\n',
      'fixtures.yaml': yamlBlock('local-cloud.md', '`--fixtures FILE`'),
    });
    const usage = await run(fixtures, 'moor get usage --subscription 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11 --location westeurope');
    expect(usage.stdout).toMatch(/ContainerGroups +0 +20 /);
  }, 120_000);

  it('the standalone local cloud: moor plans against it over http, at the port and with the token the guide gives', async () => {
    const dir = workdir();
    cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
    const [serve, plan] = shLines('local-cloud.md', 'Point moor at it with:');
    const args = backgroundArgs(serve);
    expect(args.slice(0, 2)).toEqual(['local-cloud', '--port']);
    // Its own port, not the guide's (another test may hold it); the plan line must name the port the cloud line gives.
    const cloud = startMoor(dir, undefined, ['local-cloud', '--port', '0', ...args.slice(3)], NO_MOOR_ENV);
    try {
      const url = (await cloud.written(LISTENING))[1];
      const { env, args: planArgs } = withVariables(plan);
      expect(env.MOOR_ENDPOINT).toBe(`http://127.0.0.1:${args[2]}`);
      const r = await moor(dir, undefined, planArgs, { ...NO_MOOR_ENV, ...env, MOOR_ENDPOINT: url });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Plan: [1-9]\d* to create/);
      // Against the standalone cloud: the built-in one was not started (its data file is the standalone's, .moor/local-cloud.json).
      expect(r.stderr).not.toMatch(/built-in local cloud/);
    } finally {
      cloud.signal('SIGTERM');
      expect((await cloud).code).toBe(0);
    }
  }, 120_000);

  it("moor get: each lookup against the built-in local cloud's demo data", async () => {
    const dir = workdir();
    const lines = shLines('local-cloud.md', '## `moor get`');
    expect(lines.map((l) => l.split(' ')[2])).toEqual(['usage', 'name-availability', 'eventstreams', 'transactions']);
    for (const line of lines) await run(dir, line);
    const totals = await run(dir, lines[3]);
    expect(totals.stdout).toContain('TOTAL');
  }, 120_000);
});

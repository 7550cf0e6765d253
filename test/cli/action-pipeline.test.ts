// The composite action (action.yml) as a team's pipeline runs it, with the runner's GITHUB_*
// variables set: arguments split as a shell would but never evaluated, each diagnostic annotated
// once, state where the state input says, the saved plan applied on merge, and one pull-request
// comment edited in place on every push (found by its marker), with `gh` stubbed on PATH.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { authManifest, INVALID_AUTH_CONTEXT, ROOT, workdir } from '../e2e/harness.js';

interface ActionStep {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}
const steps = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: ActionStep[] } }).runs.steps;
const script = (id: string) => steps.find((s) => s.id === id)!.run!;

/** A step's variables that the runner fills from the event, `${{ github.event.A || github.event.B }}`, filled as it does (the first set, else empty). */
function eventEnv(id: string, event: unknown): Record<string, string> {
  const filled: Record<string, string> = {};
  for (const [name, value] of Object.entries(steps.find((s) => s.id === id)!.env ?? {})) {
    const expression = /^\$\{\{ (github\.event\.[\w.]+(?: \|\| github\.event\.[\w.]+)*) \}\}$/.exec(value);
    if (!expression) continue;
    const values = expression[1].split(' || ').map((path) =>
      path
        .split('.')
        .slice(2)
        .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], event),
    );
    // The event's numbers and strings; `||` takes the first that is truthy, as the runner's expressions do.
    const found = values.find((v): v is string | number => (typeof v === 'number' || typeof v === 'string') && Boolean(v));
    filled[name] = found === undefined ? '' : String(found);
  }
  return filled;
}

interface Run {
  code: number;
  stdout: string;
  outputs: Record<string, string>;
  markdown?: string;
}

/**
 * Runs one step's script as the runner does, with the shell a step of `shell: bash` gets
 * (bash --noprofile --norc -eo pipefail). Not spawnSync: a worker blocked for the seconds a step's
 * CLI runs take on a loaded machine cannot answer vitest (its RPC times out) nor time the test.
 */
async function runStep(dir: string, id: string, env: Record<string, string>): Promise<Run> {
  const files = { summary: join(dir, 'summary.md'), output: join(dir, 'output.txt') };
  if (!existsSync(files.summary)) writeFileSync(files.summary, '');
  writeFileSync(files.output, '');
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script(id)], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'ignore'],
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
      ACTION_COMMAND: 'plan',
      ACTION_PATHS: 'm',
      ACTION_ARGS: '',
      ACTION_PLAN_FILE: 'moor-plan.json',
      ACTION_WORKING_DIRECTORY: '.',
      ...env,
    },
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  const status = await new Promise<number | null>((res) => child.on('close', (code) => res(code)));
  const lines = readFileSync(files.output, 'utf8').trim().split('\n').filter(Boolean);
  const outputs = Object.fromEntries(lines.map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]));
  const markdown = outputs.markdown && existsSync(outputs.markdown) ? readFileSync(outputs.markdown, 'utf8') : undefined;
  return { code: status ?? -1, stdout, outputs, markdown };
}

const LITERAL_SECRET = `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: web
spec:
  subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11
  resourceGroup: rg-action
  location: westeurope
  properties:
    osType: Linux
    containers:
      - name: web
        properties:
          image: nginx:1.27
          resources: {requests: {cpu: 1, memoryInGB: 1.5}}
          environmentVariables:
            - {name: DB_PASSWORD, secureValue: "literal-pass-123"}
`;

describe('the composite action in a pipeline', () => {
  test('args are split as a shell would (quoted paths and a quoted path with a space stay one argument) and never evaluated; a --config in args reaches validate, which passes over that file', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'conf dir/prod.yml': 'parallelism: 4\n' });
    // validate walks "conf dir" too: were the config not its --config, it would read prod.yml as a manifest and fail.
    const r = await runStep(dir, 'run', { ACTION_ARGS: `--config "conf dir/prod.yml" --target 'AuthContext/c1'`, ACTION_PATHS: '"m" "conf dir"' });
    expect(r.outputs.exitcode, r.stdout).toBe('2');
    expect(r.markdown).toContain('### moor plan');
    const evil = await runStep(dir, 'run', { ACTION_ARGS: '--target "$(touch pwned)"' });
    expect(evil.outputs.exitcode).toBe('1');
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  test("the step's word splitting, as the args and paths inputs get it: quoted words (split by xargs) and unquoted ones (split by read in the shell) alike, nothing evaluated", async () => {
    const dir = workdir();
    const splitWords = /^split_words\(\) \{\n[\s\S]*?\n\}\n/m.exec(script('run'))![0];
    const inputs = [
      'm',
      '  a \t b\nc  ',
      '$(touch pwned) `touch pwned` $HOME * ?',
      `"conf dir/x.yml" 'AuthContext/c1' a\\ b`,
      '--target "$(touch pwned)"',
      '   ',
    ];
    // Each input's words, NUL-terminated, after its count.
    const each = 'for s in "$@"; do split_words got "$s" || exit 1; printf \'%s\\0\' "${#got[@]}" "${got[@]}"; done';
    const child = spawn('bash', ['-c', `${splitWords}${each}`, 'bash', ...inputs], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, RUNNER_TEMP: dir },
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    expect(await new Promise((res) => child.on('close', res))).toBe(0);
    const fields = out.split('\0').slice(0, -1);
    const split: string[][] = [];
    for (let at = 0; at < fields.length; at += 1 + Number(fields[at])) split.push(fields.slice(at + 1, at + 1 + Number(fields[at])));
    expect(split).toEqual([
      ['m'],
      ['a', 'b', 'c'],
      ['$(touch', 'pwned)', '`touch', 'pwned`', '$HOME', '*', '?'],
      ['conf dir/x.yml', 'AuthContext/c1', 'a b'],
      ['--target', '$(touch pwned)'],
      [],
    ]);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  test('each diagnostic is annotated once: a literal secret warning by plan only; a YAML error by validate only, the step failing with the validation report as its markdown', async () => {
    const dir = workdir({ 'm/web.yaml': LITERAL_SECRET });
    const r = await runStep(dir, 'run', {});
    expect(r.outputs.exitcode, r.stdout).toBe('2');
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::warning file=m/web.yaml'))).toHaveLength(1);
    const broken = workdir({ 'm/bad.yaml': INVALID_AUTH_CONTEXT });
    const b = await runStep(broken, 'run', {});
    expect(b.code).toBe(1);
    expect(b.outputs.exitcode).toBe('1');
    expect(b.stdout.split('\n').filter((l) => l.startsWith('::error'))).toHaveLength(1);
    expect(b.markdown).toContain('### moor validate');
    expect(b.markdown).toContain('m/bad.yaml:6:16: error');
  });

  test('command validate: the markdown output is the validation report', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const r = await runStep(dir, 'run', { ACTION_COMMAND: 'validate' });
    expect(r.code).toBe(0);
    expect(r.outputs.exitcode).toBe('0');
    expect(r.markdown).toContain('### moor validate');
  });

  test("a pull request's pipeline: plan with the state input (exit 2 does not fail the step; the markdown is the plan alone), its comment posted once and edited in place on the next push, found by its marker; on merge the plan artifact applied with apply --plan, none refused", async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const state = join(dir, 'shared-state', 'state.json');
    mkdirSync(join(dir, 'shared-state'));
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // A stand-in for the GitHub CLI: lists the comment recorded in comments.txt, logs writes.
    writeFileSync(
      join(bin, 'gh'),
      `#!/bin/bash
echo "$*" >> "$FAKE_GH_LOG"
if [ "$3" = "--paginate" ] || [ "$2" != "-X" ]; then [ -f "$FAKE_GH_COMMENT" ] && cat "$FAKE_GH_COMMENT"; exit 0; fi
for a in "$@"; do case "$a" in body=@*) cp "\${a#body=@}" "$FAKE_GH_BODY" ;; esac; done
echo 42 > "$FAKE_GH_COMMENT"
`,
    );
    chmodSync(join(bin, 'gh'), 0o755);
    const event = { pull_request: { number: 7 } };
    writeFileSync(join(dir, 'event.json'), JSON.stringify(event));
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      GITHUB_EVENT_PATH: join(dir, 'event.json'),
      GITHUB_REPOSITORY: 'team/infra',
      FAKE_GH_LOG: join(dir, 'gh.log'),
      FAKE_GH_COMMENT: join(dir, 'comments.txt'),
      FAKE_GH_BODY: join(dir, 'body.md'),
      ACTION_STATE: state,
    };
    for (let push = 0; push < 2; push++) {
      const run = await runStep(dir, 'run', env);
      expect(run.outputs.exitcode, run.stdout).toBe('2');
      expect(run.code).toBe(0);
      expect(run.markdown).toMatch(/^<!-- moor report: plan in \. -->\n### moor plan/);
      expect(run.markdown).not.toContain('### moor validate');
      expect(existsSync(join(dir, 'moor-plan.json'))).toBe(true);
      const comment = await runStep(dir, 'comment', { ...env, ...eventEnv('comment', event), MARKDOWN: run.outputs.markdown });
      expect(comment.code, comment.stdout).toBe(0);
    }
    const calls = readFileSync(env.FAKE_GH_LOG, 'utf8').trim().split('\n');
    expect(calls.filter((c) => c.includes('-X'))).toEqual([
      `api -X POST repos/team/infra/issues/7/comments -F body=@${join(dir, 'moor-plan.md')}`,
      `api -X PATCH repos/team/infra/issues/comments/42 -F body=@${join(dir, 'moor-plan.md')}`,
    ]);
    expect(calls[0]).toContain('select(.body | startswith(\\"<!-- moor report: plan in . -->\\"))'.replace(/\\"/g, '"'));
    expect(readFileSync(env.FAKE_GH_BODY, 'utf8')).toMatch(/^<!-- moor report: plan in \. -->\n### moor plan/);

    // The merge job: the same checkout, the plan downloaded as an artifact; no plan file is refused.
    const merge = join(dir, 'merge');
    mkdirSync(merge);
    const missing = await runStep(dir, 'run', { ACTION_COMMAND: 'apply', ACTION_STATE: state, ACTION_PLAN_FILE: 'merge/none.json' });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("::error::moor apply: no saved plan at 'merge/none.json'");
    copyFileSync(join(dir, 'moor-plan.json'), join(merge, 'plan.json'));
    const apply = await runStep(dir, 'run', { ACTION_COMMAND: 'apply', ACTION_STATE: state, ACTION_PLAN_FILE: 'merge/plan.json' });
    expect(apply.outputs.exitcode, apply.stdout).toBe('0');
    expect(Object.keys(JSON.parse(readFileSync(state, 'utf8')).resources)).toEqual(['AuthContext/c1']);
    expect(existsSync(join(dir, '.moor', 'state.json'))).toBe(false);
  }, 120_000);
});

describe('the action with stacks', () => {
  const STACKS = 'stacks:\n  dev:\n    paths: [m]\n    vars: {name: Dev}\n  prod:\n    paths: [m]\n    vars: {name: Prod}\n';
  const manifest = 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: ${var:name}\n';

  test('by default a config with stacks, here one given in args as --config=FILE (which validate takes too), plans every stack: one comment with a section per stack, no saved plan', async () => {
    const dir = workdir({ 'stacks.yml': STACKS, 'm/c1.yaml': manifest });
    const r = await runStep(dir, 'run', { ACTION_PATHS: '.', ACTION_ARGS: '--config=stacks.yml' });
    expect(r.outputs.exitcode, r.stdout).toBe('2');
    expect(r.markdown).toMatch(/^<!-- moor report: plan in \. -->\n## moor plan: 2 stacks\n/);
    expect(r.markdown).toContain('### moor plan · stack dev');
    expect(r.markdown).toContain('### moor plan · stack prod');
    expect(existsSync(join(dir, 'moor-plan.json'))).toBe(false);
  });

  test("a validation error in one stack: the step fails and the comment is validate's report of every stack", async () => {
    const dir = workdir({ 'moor.config.yaml': STACKS.replace('vars: {name: Prod}', 'vars: {other: x}'), 'm/c1.yaml': manifest });
    const r = await runStep(dir, 'run', { ACTION_PATHS: '.' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '::error file=m/c1.yaml,line=6,col=16::variable name is not set for stack prod (used by ${var:name}; add it to stacks.prod.vars) (stack prod)',
    );
    expect(r.markdown).toMatch(/^<!-- moor report: plan in \. -->\n## moor validate: 2 stacks\n/);
    expect(r.markdown).toContain('### moor validate · stack dev');
    expect(r.markdown).toContain('### moor validate · stack prod');
  });

  test("the pipelines guide's recipe with two stacks: a plan per stack (the stack input plans that stack alone) saved and applied to that stack (with or without the stack input: the plan names it); after a second merge the stale plan fails with instructions, or is re-planned and applied", async () => {
    // The recipe as docs/pipelines.md shows it: a matrix per stack, an artifact per stack, an apply per stack queued and never cancelled.
    const guide = readFileSync(join(ROOT, 'docs', 'pipelines.md'), 'utf8');
    const block = /### The pipeline with stacks[\s\S]*?```yaml\n([\s\S]*?)```/.exec(guide)![1];
    const workflow = parse(block) as {
      concurrency?: unknown;
      jobs: Record<
        string,
        {
          strategy: { matrix: { stack: string[] } };
          concurrency?: { group: string; 'cancel-in-progress': boolean };
          steps: { uses?: string; with?: Record<string, unknown> }[];
        }
      >;
    };
    expect(workflow.concurrency).toBeUndefined();
    expect(workflow.jobs.plan.strategy.matrix.stack).toEqual(['dev', 'prod']);
    expect(workflow.jobs.apply.strategy.matrix.stack).toEqual(['dev', 'prod']);
    expect(workflow.jobs.apply.concurrency).toEqual({ group: 'moor-apply-${{ matrix.stack }}', 'cancel-in-progress': false });
    const moorStep = (job: string) => workflow.jobs[job].steps.find((st) => st.uses?.endsWith('/moor@main'))!.with!;
    expect(moorStep('plan').stack).toBe('${{ matrix.stack }}');
    expect(workflow.jobs.plan.steps.find((st) => st.uses?.startsWith('actions/upload-artifact'))!.with!.name).toBe('moor-plan-${{ matrix.stack }}');
    expect(workflow.jobs.apply.steps.find((st) => st.uses?.includes('download-artifact'))!.with!.name).toBe('moor-plan-${{ matrix.stack }}');
    expect(moorStep('apply')).toMatchObject({ command: 'apply', stack: '${{ matrix.stack }}', 'on-stale-plan': 'replan', comment: true });

    // Two pull requests plan both stacks against the same state; each stack's plan is its own artifact.
    // Each stack its own auth context (dev c31, prod c32): one tenant serves both here.
    const config = 'stacks:\n  dev:\n    paths: [m]\n    vars: {name: Dev, id: c31}\n  prod:\n    paths: [m]\n    vars: {name: Prod, id: c32}\n';
    const ctx = 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: ctx\nspec:\n  id: ${var:id}\n  displayName: ${var:name}\n';
    const dir = workdir({ 'moor.config.yaml': config, 'm/c1.yaml': ctx });
    const second = ctx + '  description: from the second pull request\n';
    const plan = async (stack: string, pr: string) => runStep(dir, 'run', { ACTION_PATHS: '.', ACTION_STACK: stack, ACTION_PLAN_FILE: `${pr}-${stack}.json` });
    for (const stack of ['dev', 'prod']) {
      const first = await plan(stack, 'pr1');
      expect(first.outputs.exitcode, first.stdout).toBe('2');
      // The stack input plans that stack alone: the report is that stack's, and so is the saved plan.
      expect(first.markdown).toMatch(new RegExp(`^<!-- moor report: plan in \\. \\(stack ${stack}\\) -->\n### moor plan · stack ${stack}\n`));
      expect(JSON.parse(readFileSync(join(dir, `pr1-${stack}.json`), 'utf8')).inputs.stack).toBe(stack);
    }
    writeFileSync(join(dir, 'm/c1.yaml'), second);
    for (const stack of ['dev', 'prod']) expect((await plan(stack, 'pr2')).outputs.exitcode).toBe('2');

    // The first merge: each stack applies its own plan. prod's apply is given no stack input: the saved plan
    // names its stack, and that stack alone is applied (dev's state is not made). dev's is given it, as in the recipe.
    writeFileSync(join(dir, 'm/c1.yaml'), ctx);
    const prodApply = await runStep(dir, 'run', { ACTION_COMMAND: 'apply', ACTION_PLAN_FILE: 'pr1-prod.json' });
    expect(prodApply.outputs.exitcode, prodApply.stdout).toBe('0');
    expect(prodApply.stdout).toContain('stack prod: Apply complete: 1 created');
    expect(prodApply.markdown).toMatch(/^<!-- moor report: apply in \. -->\n### moor apply/);
    expect(existsSync(join(dir, '.moor', 'stacks', 'prod', 'state.json'))).toBe(true);
    expect(existsSync(join(dir, '.moor', 'stacks', 'dev', 'state.json'))).toBe(false);
    const devApply = await runStep(dir, 'run', { ACTION_COMMAND: 'apply', ACTION_STACK: 'dev', ACTION_PLAN_FILE: 'pr1-dev.json' });
    expect(devApply.outputs.exitcode, devApply.stdout).toBe('0');
    expect(devApply.stdout).toContain('stack dev: Apply complete: 1 created');
    expect(devApply.markdown).toMatch(/^<!-- moor report: apply in \. \(stack dev\) -->\n### moor apply/);

    // The second merge: its plans are stale. dev fails, nothing applied, saying how to recover.
    writeFileSync(join(dir, 'm/c1.yaml'), second);
    const stale = await runStep(dir, 'run', { ACTION_COMMAND: 'apply', ACTION_STACK: 'dev', ACTION_PLAN_FILE: 'pr2-dev.json' });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/saved plan pr2-dev\.json is stale/);
    expect(stale.stdout).toContain(
      "::error::moor apply: the reviewed plan is stale (state or the manifests moved on since it was reviewed: another change was applied first); nothing was applied. Plan this commit again and apply it: re-run with on-stale-plan: replan, or run 'moor plan --stack dev --out plan.json', review it and 'moor apply --plan plan.json'",
    );
    const devState = JSON.parse(readFileSync(join(dir, '.moor/stacks/dev/state.json'), 'utf8'));
    expect(devState.resources['AuthContext/ctx'].lastApplied.description).toBeUndefined();
    // prod re-plans the merge commit and applies exactly that.
    const replanned = await runStep(dir, 'run', {
      ACTION_COMMAND: 'apply',
      ACTION_STACK: 'prod',
      ACTION_PLAN_FILE: 'pr2-prod.json',
      ACTION_ON_STALE_PLAN: 'replan',
    });
    expect(replanned.outputs.exitcode, replanned.stdout).toBe('0');
    expect(replanned.stdout).toContain('planning this commit again and applying exactly that plan');
    expect(replanned.stdout).toContain('stack prod: Apply complete: 0 created, 1 updated');
    expect(replanned.markdown).toMatch(/^<!-- moor report: apply in \. \(stack prod\) -->\n### moor apply/);
    const prodState = JSON.parse(readFileSync(join(dir, '.moor/stacks/prod/state.json'), 'utf8'));
    expect(prodState.resources['AuthContext/ctx'].lastApplied.description).toBe('from the second pull request');
  }, 300_000);
});

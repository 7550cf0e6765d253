// moor history: every apply appends a run to state (who, when, the manifests' git commit, what changed),
// listed newest first, bounded by history.keep, per address, as text or JSON.
import { execFileSync } from 'node:child_process';
import { hostname, userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authManifest, moor, startCloud, workdir, writeFile, type Cloud } from './harness.js';

interface Run {
  by: string;
  commit?: string;
  command: string;
  result: string;
  startedAt: string;
  ci?: { system: string; url?: string; runId?: string };
  counts: Record<string, number>;
  changes: { address: string; action: string; result: string; error?: string }[];
}

/** Outside CI, whatever runs the tests: GitHub's variables would make the run a CI one. */
const LOCAL = { GITHUB_ACTIONS: '', GITHUB_ACTOR: '', GITHUB_SHA: '' };

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.email=dev@example.net', '-c', 'user.name=dev', ...args], { encoding: 'utf8' }).trim();
}

describe('moor history', () => {
  let cloud: Cloud;
  let dir: string;
  const run = (args: string[], env: NodeJS.ProcessEnv = LOCAL) => moor(dir, cloud, args, env);
  const runs = async (...args: string[]): Promise<Run[]> => {
    const r = await run(['history', '--output', 'json', ...args]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { format: string; runs: Run[] };
    expect(doc.format).toBe('moor-history/1');
    return doc.runs;
  };

  beforeAll(async () => {
    cloud = await startCloud();
    dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }), 'm/c2.yaml': authManifest('c2', { displayName: 'Two' }) });
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'two auth contexts');
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  it('says there is no history before the first apply', async () => {
    const r = await run(['history']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('No runs in the history yet: it starts with the next apply.\n');
  });

  it('records who applied, from which commit, and each change with its result', async () => {
    const first = await run(['apply', 'm', '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);
    const [only, ...rest] = await runs();
    expect(rest).toHaveLength(0);
    expect(only.by).toBe(`${userInfo().username}@${hostname()}`);
    expect(only.commit).toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(only.command).toBe('apply');
    expect(only.result).toBe('succeeded');
    expect(only.counts).toMatchObject({ created: 2, updated: 0, failed: 0 });
    expect(only.changes).toEqual([
      { address: 'AuthContext/c1', action: 'create', result: 'done' },
      { address: 'AuthContext/c2', action: 'create', result: 'done' },
    ]);
  });

  it('lists runs newest first, names the new commit, and filters by address', async () => {
    writeFile(dir, 'm/c2.yaml', authManifest('c2', { displayName: 'Two, renamed' }));
    git(dir, 'commit', '-qam', 'rename c2');
    const second = await run(['apply', 'm', '--auto-approve']);
    expect(second.code, second.stderr).toBe(0);
    const all = await runs();
    expect(all.map((r) => r.counts.updated)).toEqual([1, 0]);
    expect(all[0].commit).toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(all[0].changes).toEqual([{ address: 'AuthContext/c2', action: 'update', result: 'done' }]);
    expect(all[1].commit).toBe(git(dir, 'rev-parse', 'HEAD~1'));
    // A no-op apply is a run too; it changed nothing.
    const noop = await run(['apply', 'm', '--auto-approve']);
    expect(noop.code, noop.stderr).toBe(0);
    expect((await runs())[0]).toMatchObject({ result: 'succeeded', changes: [] });

    const c1 = await runs('AuthContext/c1');
    expect(c1).toHaveLength(1);
    expect(c1[0].changes).toEqual([{ address: 'AuthContext/c1', action: 'create', result: 'done' }]);
    const text = await run(['history', 'AuthContext/c2']);
    expect(text.stdout).toMatch(
      /^\S+Z {2}apply {2}succeeded {2}by \S+@\S+ {2}commit [0-9a-f]{12}\n {2}0 created, 1 updated, 0 replaced, 0 deleted, 0 run\n +~ AuthContext\/c2: done\n/,
    );
    expect(text.stdout.match(/AuthContext\/c2: done/g)).toHaveLength(2);
  });

  it('names the CI actor and run on GitHub Actions', async () => {
    writeFile(dir, 'm/c1.yaml', authManifest('c1', { displayName: 'One, from CI' }));
    const ci = await run(['apply', 'm', '--auto-approve'], {
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTOR: 'octocat',
      GITHUB_REPOSITORY: 'acme/infra',
      GITHUB_RUN_ID: '4242',
      GITHUB_RUN_ATTEMPT: '2',
      GITHUB_SERVER_URL: 'https://github.com',
    });
    expect(ci.code, ci.stderr).toBe(0);
    const [latest] = await runs();
    expect(latest.by).toBe('octocat (GitHub Actions)');
    expect(latest.ci).toMatchObject({ system: 'github-actions', runId: '4242.2', url: 'https://github.com/acme/infra/actions/runs/4242' });
  });

  it('keeps only the newest history.keep runs', async () => {
    writeFile(dir, 'moor.config.yaml', 'history: {keep: 2}\n');
    writeFile(dir, 'm/c1.yaml', authManifest('c1', { displayName: 'One, kept' }));
    const kept = await run(['apply', 'm', '--auto-approve']);
    expect(kept.code, kept.stderr).toBe(0);
    const all = await runs();
    expect(all).toHaveLength(2);
    expect(all[0].changes).toEqual([{ address: 'AuthContext/c1', action: 'update', result: 'done' }]);
    expect(all[1].by).toBe('octocat (GitHub Actions)');
  });

  it("keeps each stack's history with its state, and names the stack", async () => {
    const stacked = workdir({
      'base/c9.yaml': authManifest('c9', { displayName: '${var:label}' }),
      'moor.config.yaml': 'stacks:\n  dev: {paths: [base], vars: {label: dev}}\n  prod: {paths: [base], vars: {label: prod}}\n',
    });
    const applied = await moor(stacked, cloud, ['apply', '--stack', 'dev', '--auto-approve'], LOCAL);
    expect(applied.code, applied.stderr).toBe(0);
    const dev = await moor(stacked, cloud, ['history', '--stack', 'dev'], LOCAL);
    expect(dev.stdout).toMatch(/^\S+ {2}apply {2}succeeded {2}by \S+ {2}stack dev\n/);
    const prod = await moor(stacked, cloud, ['history', '--stack', 'prod'], LOCAL);
    expect(prod.stdout).toBe('No runs in the history yet: it starts with the next apply.\n');
  });

  it('marks the commit +dirty when the manifests had changes not committed, in JSON and text', async () => {
    writeFile(dir, 'moor.config.yaml', 'history: {keep: 10}\n');
    writeFile(dir, 'm/c2.yaml', authManifest('c2', { displayName: 'Two, not committed' }));
    const dirty = await run(['apply', 'm', '--auto-approve']);
    expect(dirty.code, dirty.stderr).toBe(0);
    const head = git(dir, 'rev-parse', 'HEAD');
    expect((await runs())[0].commit).toBe(`${head}+dirty`);
    const text = await run(['history', 'AuthContext/c2']);
    expect(text.stdout.split('\n')[0]).toContain(`commit ${head.slice(0, 12)}+dirty`);

    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'everything');
    writeFile(dir, 'm/c2.yaml', authManifest('c2', { displayName: 'Two, committed' }));
    git(dir, 'commit', '-qam', 'rename c2 again');
    const clean = await run(['apply', 'm', '--auto-approve']);
    expect(clean.code, clean.stderr).toBe(0);
    expect((await runs())[0].commit).toBe(git(dir, 'rev-parse', 'HEAD'));
  });

  it("without --stack on a config with stacks, lists every stack's runs newest first, each naming its stack", async () => {
    const stacked = workdir({
      // Each stack its own auth context: a live resource belongs to one stack.
      'base/c11.yaml': authManifest('c11', { id: '${var:ctx}', displayName: '${var:label}' }),
      'moor.config.yaml': 'stacks:\n  dev: {paths: [base], vars: {label: dev, ctx: c11}}\n  prod: {paths: [base], vars: {label: prod, ctx: c12}}\n',
    });
    const dev = await moor(stacked, cloud, ['apply', '--stack', 'dev', '--auto-approve'], LOCAL);
    expect(dev.code, dev.stderr).toBe(0);
    const prod = await moor(stacked, cloud, ['apply', '--stack', 'prod', '--auto-approve'], LOCAL);
    expect(prod.code, prod.stderr).toBe(0);
    const all = await moor(stacked, cloud, ['history'], LOCAL);
    expect(all.code, all.stderr).toBe(0);
    expect(
      all.stdout
        .split('\n')
        .filter((l) => /^\S+Z /.test(l))
        .map((l) => /stack (\w+)/.exec(l)?.[1]),
    ).toEqual(['prod', 'dev']);
    const json = await moor(stacked, cloud, ['history', '--output', 'json'], LOCAL);
    expect((JSON.parse(json.stdout) as { runs: { stack: string }[] }).runs.map((r) => r.stack)).toEqual(['prod', 'dev']);
  });

  it('refuses a history.keep that is not a positive integer', async () => {
    writeFile(dir, 'moor.config.yaml', 'history: {keep: 0}\n');
    const bad = await run(['history']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('moor.config.yaml: history.keep must be a positive integer');
  });
});

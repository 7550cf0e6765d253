// docs/drift.md's crontab line and its GitHub Actions step. The crontab line, run as cron runs it (`sh -c` with the command after the five schedule
// fields), read from the page: only the machine's paths are the test's (the infrastructure folder, the
// root-only env file, the log), `npx moor` finds moor installed in that folder as the page's install
// leaves it, and `logger` is a stand-in on PATH that keeps what it is given. Found drift (exit 2) is the
// notification's to tell, not a failure; an error (exit 1) is logged as one. The pipeline step, run as
// the runner runs a `run:` (bash -eo pipefail) with its env from the page and the job summary in a file:
// drift found is a warning and the report in the summary, an error fails the step.
// `npx moor` runs once as written (the crontab line's drift found): npx finds moor installed in the folder,
// passes its output and its exit code 2 on. npx is npm's exec (about 1 CPU-s of npm before moor starts),
// and what it does is put the folder's node_modules/.bin on PATH and run the command in a shell: the
// other runs do that themselves (installedMoor), so the same installed moor runs the page's command.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ARM_PATH,
  AUTH_PATH,
  authManifest,
  cloudRequest,
  groupManifest,
  moor,
  putBehindMoor,
  ROOT,
  startCloud,
  TOKEN,
  workdir,
  type Cloud,
} from './harness.js';

const run = promisify(execFile);

/** The page's crontab line: its schedule and its command. */
function cronLine(): { schedule: string; command: string } {
  const page = readFileSync(join(ROOT, 'docs/drift.md'), 'utf8');
  const line = /```\n(.+)\n```/.exec(page.slice(page.indexOf('crontab (')))![1];
  const [, schedule, command] = /^(\S+ \S+ \S+ \S+ \S+) (.+)$/.exec(line)!;
  return { schedule, command };
}

/** The page's GitHub Actions step (the yaml block after 'CI pipeline step'). */
function pipelineStep(): { name: string; env: Record<string, string>; run: string } {
  const page = readFileSync(join(ROOT, 'docs/drift.md'), 'utf8');
  const block = /```yaml\n([\s\S]+?)```/.exec(page.slice(page.indexOf('CI pipeline step')))![1];
  const [step] = parse(block) as { name: string; env: Record<string, string>; run: string }[];
  return step;
}

/** moor installed in the infrastructure folder (docs/pipelines.md): `npx moor` runs it, never the registry's. */
function installMoor(dir: string): void {
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(join(ROOT, 'bin/moor.js'), join(dir, 'node_modules/.bin/moor'));
}

/**
 * The page's command with its `npx moor` run as npm exec runs it when moor is installed in the folder: `moor`
 * from the folder's node_modules/.bin, which `withInstalledBin` puts first on PATH.
 */
function installedMoor(command: string): string {
  expect(command.split('npx moor ')).toHaveLength(2);
  return command.replace('npx moor ', 'moor ');
}

/** `env` with the folder's node_modules/.bin first on PATH, as npm exec runs a package's bin. */
function withInstalledBin(dir: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PATH: `${join(dir, 'node_modules/.bin')}:${env.PATH ?? ''}` };
}

/** The environment of a run on a machine that has none of moor's variables, offline for npx. */
function machineEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MOOR_') && !k.startsWith('GITHUB_'))),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    NO_COLOR: '1',
    ...extra,
  };
}

describe("the drift guide's crontab line and pipeline step", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(() => (cloud as Cloud | undefined)?.stop()); // unset if beforeAll failed

  it('runs every 30 minutes; drift found posts the report and logs no failure, an error is logged as a failure', async () => {
    const { schedule, command } = cronLine();
    expect(schedule).toBe('*/30 * * * *');
    const conversation = '19:ops-alerts';
    const dir = workdir({
      'manifests/c1.yaml': authManifest('c7', { displayName: 'As written' }),
      'moor.config.yaml': `notify:\n  serviceUrl: ${cloud.url}\n  conversationId: "${conversation}"\n  bot: {id: "28:moor-bot", name: moor}\n  tokenEnv: MOOR_TOKEN\n`,
      // The root-only env file: where the service and its token are.
      'moor.env': `export MOOR_ENDPOINT=${cloud.url} MOOR_TOKEN=${TOKEN} MOOR_POLL_INTERVAL_MS=50 NO_COLOR=1\n`,
      'bin/logger': '#!/bin/sh\necho "logger $*: $(cat)" >> "$LOGGED"\n',
    });
    installMoor(dir);
    const paths = { '/srv/infra': dir, '/etc/moor/env': join(dir, 'moor.env'), '/var/log/moor-drift.log': join(dir, 'drift.log') };
    for (const path of Object.keys(paths)) expect(command).toContain(path);
    const local = Object.entries(paths).reduce((line, [path, here]) => line.replaceAll(path, here), command);
    const logged = join(dir, 'logged.txt');
    const env = machineEnv({ PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, LOGGED: logged });
    const cron = (line: string, lineEnv: NodeJS.ProcessEnv) => run('sh', ['-c', line], { cwd: '/', env: lineEnv, timeout: 120_000 });
    chmodSync(join(dir, 'bin/logger'), 0o755);

    const applied = await moor(dir, cloud, ['apply', 'manifests', '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await cloudRequest(cloud, 'PATCH', AUTH_PATH('c7'), { displayName: 'changed by hand' })).status).toBeLessThan(300);
    await cron(local, env);
    expect(readFileSync(join(dir, 'drift.log'), 'utf8')).toContain('AuthContext/c7');
    expect(existsSync(logged), 'a drift found is not a failure').toBe(false);
    const posted = (await cloudRequest(cloud, 'GET', `/v3/conversations/${encodeURIComponent(conversation)}/activities`)).body.activities as unknown[];
    expect(posted.length).toBeGreaterThan(0);

    // An error: the manifests' folder is gone (the installed moor run as npx ran it above).
    renameSync(join(dir, 'manifests'), join(dir, 'moved'));
    await cron(installedMoor(local), withInstalledBin(dir, env));
    expect(readFileSync(logged, 'utf8')).toBe('logger -t moor: moor drift failed\n');
    // moor's own message, in the log as the line sends it: the installed moor ran (not a shell's 'not found').
    expect(readFileSync(join(dir, 'drift.log'), 'utf8')).toContain('error: manifests/: no such file or directory');
  }, 300_000);

  it('the pipeline step: drift found is a warning with the report in the job summary and the chat, an error fails the step', async () => {
    const step = pipelineStep();
    expect(step.name).toBe('Drift check');
    // The step's secrets, as the runner fills them from the repository's secrets.
    expect(step.env).toEqual({ BOT_TOKEN: '${{ secrets.BOT_TOKEN }}', ARM_TOKEN: '${{ secrets.ARM_TOKEN }}' });
    const conversation = '19:ops-alerts';
    const activities = async () =>
      ((await cloudRequest(cloud, 'GET', `/v3/conversations/${encodeURIComponent(conversation)}/activities`)).body.activities as unknown[]).length;
    const dir = workdir({
      'manifests/web.yaml': groupManifest('web'),
      'manifests/secret.txt': 'pipeline-secret-value\n',
      // docs/configuration.md's names: the service's token from ARM_TOKEN, the bot's from BOT_TOKEN.
      'moor.config.yaml': `endpoints:\n  arm: ${cloud.url}\ncredentials:\n  arm: {tokenEnv: ARM_TOKEN}\nnotify:\n  serviceUrl: ${cloud.url}\n  conversationId: "${conversation}"\n  bot: {id: "28:moor-bot", name: moor}\n  tokenEnv: BOT_TOKEN\n`,
    });
    installMoor(dir);
    const summary = join(dir, 'step-summary.md');
    const env = machineEnv({ BOT_TOKEN: TOKEN, ARM_TOKEN: TOKEN, GITHUB_STEP_SUMMARY: summary, MOOR_POLL_INTERVAL_MS: '50' });
    // How the runner runs a step's `run:` with the default shell; `npx moor` as npm exec runs the installed moor (the crontab line's run proves npx).
    const runStep = () =>
      run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', installedMoor(step.run)], {
        cwd: dir,
        env: withInstalledBin(dir, env),
        timeout: 120_000,
      }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: unknown) => ({ code: (e as { code: number }).code, stdout: (e as { stdout: string }).stdout, stderr: (e as { stderr: string }).stderr }),
      );

    const applied = await moor(dir, cloud, ['apply', 'manifests', '--auto-approve'], { ARM_TOKEN: TOKEN });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    // A hand change: a tag added behind moor's back.
    const live = await cloudRequest(cloud, 'GET', ARM_PATH('web'));
    expect(live.status).toBe(200);
    const changed = { location: live.body.location, tags: { owner: 'changed-by-hand' }, properties: live.body.properties };
    expect((await putBehindMoor(cloud, ARM_PATH('web'), changed)).status).toBeLessThan(300);

    const postedBefore = await activities();
    const drifted = await runStep();
    expect(drifted.code, drifted.stdout + drifted.stderr + readFileSync(join(dir, 'drift.md'), 'utf8')).toBe(0);
    expect(drifted.stdout).toContain('::warning::drift found (see the chat and the summary)');
    const report = readFileSync(summary, 'utf8');
    expect(report).toContain('ContainerGroup/web');
    expect(report).not.toContain('pipeline-secret-value');
    expect(await activities()).toBeGreaterThan(postedBefore);

    // An error: the manifests' folder is gone. The step fails, with no warning of drift.
    renameSync(join(dir, 'manifests'), join(dir, 'moved'));
    const failed = await runStep();
    expect(failed.code).toBe(1);
    expect(failed.stdout).not.toContain('::warning::');
  }, 300_000);
});

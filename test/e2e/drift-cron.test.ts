// docs/drift.md's crontab line, run as cron runs it (`sh -c` with the command after the five schedule
// fields), read from the page: only the machine's paths are the test's (the infrastructure folder, the
// root-only env file, the log), `npx moor` finds moor installed in that folder as the page's install
// leaves it, and `logger` is a stand-in on PATH that keeps what it is given. Found drift (exit 2) is the
// notification's to tell, not a failure; an error (exit 1) is logged as one.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATH, authManifest, cloudRequest, moor, ROOT, startCloud, TOKEN, workdir, type Cloud } from './harness.js';

const run = promisify(execFile);

/** The page's crontab line: its schedule and its command. */
function cronLine(): { schedule: string; command: string } {
  const page = readFileSync(join(ROOT, 'docs/drift.md'), 'utf8');
  const line = /```\n(.+)\n```/.exec(page.slice(page.indexOf('crontab (')))![1];
  const [, schedule, command] = /^(\S+ \S+ \S+ \S+ \S+) (.+)$/.exec(line)!;
  return { schedule, command };
}

describe("the drift guide's crontab line", () => {
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
    // moor installed in the infrastructure folder (docs/pipelines.md): `npx moor` runs it, never the registry's.
    mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(join(ROOT, 'bin/moor.js'), join(dir, 'node_modules/.bin/moor'));
    const paths = { '/srv/infra': dir, '/etc/moor/env': join(dir, 'moor.env'), '/var/log/moor-drift.log': join(dir, 'drift.log') };
    for (const path of Object.keys(paths)) expect(command).toContain(path);
    const local = Object.entries(paths).reduce((line, [path, here]) => line.replaceAll(path, here), command);
    const logged = join(dir, 'logged.txt');
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MOOR_'))),
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      LOGGED: logged,
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    };
    const cron = () => run('sh', ['-c', local], { cwd: '/', env, timeout: 120_000 });
    chmodSync(join(dir, 'bin/logger'), 0o755);

    const applied = await moor(dir, cloud, ['apply', 'manifests', '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await cloudRequest(cloud, 'PATCH', AUTH_PATH('c7'), { displayName: 'changed by hand' })).status).toBeLessThan(300);
    await cron();
    expect(readFileSync(join(dir, 'drift.log'), 'utf8')).toContain('AuthContext/c7');
    expect(existsSync(logged), 'a drift found is not a failure').toBe(false);
    const posted = (await cloudRequest(cloud, 'GET', `/v3/conversations/${encodeURIComponent(conversation)}/activities`)).body.activities as unknown[];
    expect(posted.length).toBeGreaterThan(0);

    // An error: the manifests' folder is gone.
    renameSync(join(dir, 'manifests'), join(dir, 'moved'));
    await cron();
    expect(readFileSync(logged, 'utf8')).toBe('logger -t moor: moor drift failed\n');
  }, 300_000);
});

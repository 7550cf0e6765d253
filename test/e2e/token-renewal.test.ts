// Tokens that expire while moor follows a database job: the token command runs again (before
// expiry when it says when, after a 401 when it does not), the job completes, no token is shown.
// The cloud and the apply read one test clock: a token lasts an hour of it and the job's two phases 40
// minutes each; the test moves the clock to the first token's expiry while the job runs, instead of waiting.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { RequestLogLine } from '../../src/localcloud/request-log.js';
import { testClock } from '../support/test-clock.js';
import { ENV, exportManifest, operationsOf, startCloud, startMoor, TOKEN, workdir, type Cloud, type RunResult } from './harness.js';

const MINUTE_MS = 60_000;
const TOKEN_MS = 60 * MINUTE_MS;
const PHASE_MS = 40 * MINUTE_MS;

/**
 * Prints a token the cloud accepts for an hour of the test clock (the system's time plus the advance the
 * test wrote to clock.txt), as JSON with its expiry or bare; counts its runs.
 */
const TOKEN_SCRIPT = `
const fs = require('node:fs');
fs.appendFileSync(__dirname + '/runs.txt', 'x');
const now = Date.now() + Number(fs.readFileSync(__dirname + '/clock.txt', 'utf8'));
const expiresOn = now / 1000 + ${TOKEN_MS / 1000};
const token = '${TOKEN}.' + expiresOn.toFixed(3);
process.stdout.write(process.argv[2] === 'bare' ? token + '\\n' : JSON.stringify({ accessToken: token, expires_on: expiresOn, tokenType: 'Bearer' }));
`;

/** Until `check` holds; a failure when the run ends first. */
async function until(check: () => Promise<boolean> | boolean, run: Promise<RunResult>, what: string): Promise<void> {
  let ended: RunResult | undefined;
  void run.then((r) => {
    ended = r;
  });
  while (!(await check())) {
    if (ended) throw new Error(`apply ended before ${what}: ${ended.stdout}${ended.stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('token renewal during a followed job', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test.each([['json'], ['bare']])('a job outliving its %s token completes with renewed tokens', async (shape) => {
    // Each phase of the job lasts 40 minutes of the clock: it runs for 80, past one token's hour.
    const clock = testClock();
    const dir = workdir({
      'token.cjs': TOKEN_SCRIPT,
      'clock.txt': '0',
      'm/export.yaml': exportManifest('renewing', { backupName: `renew-${shape}`, revision: '1' }),
    });
    const log = join(dir, 'requests.jsonl');
    const c = (cloud = await startCloud({
      clock,
      args: ['--expiring-tokens', '--request-log', log],
      env: { MOOR_LOCAL_CLOUD_ASYNC_MS: String(PHASE_MS) },
    }));
    let advanced = 0;
    /**
     * Moves the clock on; the token command reads the advance first, so a token it prints meanwhile is not born expired.
     * The file is replaced whole (renamed into place): a command reading it while it was rewritten in place read it empty,
     * as no advance, and printed a token the cloud's clock had already passed.
     */
    const advance = (ms: number) => {
      advanced += ms;
      writeFileSync(join(dir, 'clock.txt.new'), String(advanced));
      renameSync(join(dir, 'clock.txt.new'), join(dir, 'clock.txt'));
      clock.advance(ms);
    };
    const runs = () => readFileSync(join(dir, 'runs.txt'), 'utf8').length;
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, 'token.cjs'))} ${shape}`;
    const config = `credentials:\n  lcs:\n    tokenCommand: ${JSON.stringify(command)}\n`;
    writeFileSync(join(dir, 'moor.config.yaml'), config);
    // MOOR_TOKEN of the other services is the plain token; lcs must use the command's.
    const run = startMoor(dir, c, ['apply', 'm', '--auto-approve'], {}, { clock });
    await until(async () => (await operationsOf(c, ENV.test)).length > 0, run, 'the export was sent');
    // The first phase has ended, the job has not, and the next request needs a new token. A JSON token is renewed
    // in the two minutes before its expiry, so the clock stops at minute 59: a poll in flight across the jump still
    // carries a token the cloud accepts. A bare token is renewed once refused, so the clock passes its hour.
    advance((shape === 'json' ? 59 : 61) * MINUTE_MS);
    await until(() => runs() > 1, run, 'the token was renewed');
    // 30 minutes on (89 or 91): the job has ended, and the renewed token (an hour from minute 59 or 61) is still good.
    advance(30 * MINUTE_MS);
    const apply = await run;
    const output = apply.stdout + apply.stderr;
    expect(apply.code, output).toBe(0);
    expect((await operationsOf(c, ENV.test)).map((o) => o.status)).toEqual(['Completed']);
    expect(readFileSync(join(dir, 'runs.txt'), 'utf8').length).toBeGreaterThan(1);
    // A token whose expiry the command printed is renewed before it expires (the run's clock is the cloud's);
    // a bare one once the service refuses it.
    await c.stop(); // its request log written out
    const refused = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .filter((l) => (JSON.parse(l) as RequestLogLine).status === 401);
    expect(refused.length, refused.join('\n')).toBe(shape === 'json' ? 0 : 1);
    expect(output).not.toContain(`${TOKEN}.`);
    expect(readFileSync(join(dir, '.moor/state.json'), 'utf8')).not.toContain(`${TOKEN}.`);
  });
});

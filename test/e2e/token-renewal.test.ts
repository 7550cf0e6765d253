// Tokens that expire while moor follows a database job: the token command runs again (before
// expiry when it says when, after a 401 when it does not), the job completes, no token is shown.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ENV, exportManifest, moor, operationsOf, startCloud, TOKEN, workdir, type Cloud } from './harness.js';

/** Prints a token the cloud accepts for 2 s, as JSON with its expiry or bare; counts its runs. */
const TOKEN_SCRIPT = `
const fs = require('node:fs');
fs.appendFileSync(__dirname + '/runs.txt', 'x');
const expiresOn = Date.now() / 1000 + 2;
const token = '${TOKEN}.' + expiresOn.toFixed(3);
process.stdout.write(process.argv[2] === 'bare' ? token + '\\n' : JSON.stringify({ accessToken: token, expires_on: expiresOn, tokenType: 'Bearer' }));
`;

describe('token renewal during a followed job', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test.each([['json'], ['bare']])('a job outliving its %s token completes with renewed tokens', async (shape) => {
    // Each phase of the job lasts 2.5 s: it runs for 5 s, well past one token's 2 s.
    const c = (cloud = await startCloud({ args: ['--expiring-tokens'], env: { MOOR_LOCAL_CLOUD_ASYNC_MS: '2500' } }));
    const dir = workdir({ 'token.cjs': TOKEN_SCRIPT, 'm/export.yaml': exportManifest('renewing', { backupName: `renew-${shape}`, revision: '1' }) });
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, 'token.cjs'))} ${shape}`;
    const config = `credentials:\n  lcs:\n    tokenCommand: ${JSON.stringify(command)}\n`;
    writeFileSync(join(dir, 'moor.config.yaml'), config);
    // MOOR_TOKEN of the other services is the plain token; lcs must use the command's.
    const apply = await moor(dir, c, ['apply', 'm', '--auto-approve']);
    const output = apply.stdout + apply.stderr;
    expect(apply.code, output).toBe(0);
    expect((await operationsOf(c, ENV.test)).map((o) => o.status)).toEqual(['Completed']);
    expect(readFileSync(join(dir, 'runs.txt'), 'utf8').length).toBeGreaterThan(1);
    expect(output).not.toContain(`${TOKEN}.`);
    expect(readFileSync(join(dir, '.moor/state.json'), 'utf8')).not.toContain(`${TOKEN}.`);
  });
});

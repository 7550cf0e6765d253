// Hostile input through the built CLI: a self-referencing alias is a located error in validate,
// plan and graph (never a hang); `${file:}` cannot read the run's environment; `$` patterns in
// a secret reach the service as written.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AUTH_PATH, cloudRequest, moor, startCloud, workdir, writeFile, type Cloud, type RunResult } from './harness.js';
import { moorProcess } from './processes.js';

/**
 * Far above a normal run; a hang is killed here and fails the test instead of stalling the suite. The
 * runs that could hang (a self-referencing alias) or read the process itself (/proc/self/environ) are
 * processes of their own; the rest run in this process.
 */
const GUARD_MS = 30_000;

async function guarded(run: ReturnType<typeof moorProcess>): Promise<RunResult & { hung: boolean }> {
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    run.child.kill('SIGKILL');
  }, GUARD_MS);
  try {
    return { ...(await run), hung };
  } finally {
    clearTimeout(timer);
  }
}

const authContext = (name: string, extra: string) => `apiVersion: moor/v1
kind: AuthContext
metadata:
  name: ${name}
spec:
  displayName: one
${extra}`;

describe('a self-referencing alias', () => {
  const dir = workdir({ 'm/a.yaml': authContext('c1', '  self: *s\n').replace('spec:\n', 'spec: &s\n') });
  const expected = /m\/a\.yaml:7:9: error: the alias \*s refers to a mapping or list that contains it/;

  test.each([['validate'], ['plan'], ['graph']])('%s reports it at file:line:col and exits 1', async (command) => {
    const r = await guarded(moorProcess(dir, undefined, [command, 'm']));
    expect(r.hung, `${command} hung`).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(expected);
  });
});

describe('${file:} in plan', () => {
  test('/proc/self/environ is refused at its placeholder; the token is in neither the output nor a saved plan', async () => {
    const dir = workdir({ 'm/a.yaml': authContext('c1', '  description: ${file:/proc/self/environ}\n') });
    const r = await guarded(moorProcess(dir, undefined, ['plan', 'm', '--output', 'json', '--out', 'plan.json'], { MOOR_TOKEN: 'tok-must-not-leak' }));
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain('tok-must-not-leak');
    const diagnostics = JSON.parse(r.stdout).diagnostics as { file: string; line: number; col: number; message: string }[];
    expect(diagnostics).toEqual([
      expect.objectContaining({ file: 'm/a.yaml', line: 7, col: 16, message: expect.stringContaining('an absolute path is not allowed') }),
    ]);
  });

  test("../ out of the manifests' folder is refused unless moor.config.yaml allows it", async () => {
    const dir = workdir({ 'm/a.yaml': authContext('c1', '  description: ${file:../outside.txt}\n'), 'outside.txt': 'outside' });
    const refused = await moor(dir, undefined, ['plan', 'm']);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(
      "m/a.yaml:7:16: error: cannot read file ../outside.txt (used by ${file:../outside.txt}): outside the manifests' root",
    );
    // The config changes what the same manifests may read.
    writeFile(dir, 'moor.config.yaml', 'files:\n  allow: [outside.txt]\n');
    const ok = await moor(dir, undefined, ['plan', 'm']);
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe('placeholders inside longer strings', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('a value with $$, $& and $1 is applied exactly as the variable holds it', async () => {
    const dir = workdir({ 'm/a.yaml': authContext('c31', '  description: "pw=${env:PW};"\n') });
    const r = await moor(dir, cloud, ['apply', 'm', '--auto-approve'], { PW: 'pa$$word$&$1${' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const live = await cloudRequest(cloud, 'GET', AUTH_PATH('c31'));
    expect(live.body.description).toBe('pw=pa$$word$&$1${;');
  });
});

// Every run ends with a line that says what happened; machine formats carry the errors; the
// command line says what is wrong in one line. The built CLI with its built-in local cloud.
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';

const lastLine = (text: string) => text.trimEnd().split('\n').pop() ?? '';
const noMoorEnv = Object.fromEntries(
  Object.keys(process.env)
    .filter((k) => k.startsWith('MOOR_'))
    .map((k) => [k, undefined]),
);
const run = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}) => moor(dir, undefined, args, { ...noMoorEnv, ...env });

const INVALID = `apiVersion: moor/v1
kind: AuthContext
metadata:
  name: c2
spec:
  displayName: 12
  isAvailable: maybe
`;
/** Valid, but its placeholder names a variable that is not set. */
const MISSING_ENV = authManifest('c3', { displayName: '${env:MOOR_TEST_NOT_SET}' });

describe('what happened, in the last line', () => {
  test('invalid manifests: markdown says the plan failed and shows the errors', async () => {
    const dir = workdir({ 'm/bad.yaml': INVALID, 'm/ok.yaml': authManifest('c1', { displayName: 'One' }) });
    const r = await run(dir, ['plan', 'm', '--output', 'markdown']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Plan failed: 2 errors');
    expect(r.stdout).toContain('m/bad.yaml:6:16: error: spec.displayName');
  });

  test('invalid manifests: JSON carries the errors as diagnostics', async () => {
    const dir = workdir({ 'm/bad.yaml': INVALID });
    const r = await run(dir, ['drift', 'm', '--output', 'json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { diagnostics: { severity: string; file: string }[] };
    expect(doc.diagnostics.filter((d) => d.severity === 'error')).toHaveLength(2);
  });

  test('a plan with an error ends with the failure and its root cause, not the counts', async () => {
    const dir = workdir({ 'm/c3.yaml': MISSING_ENV, 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const r = await run(dir, ['plan', 'm']);
    expect(r.code).toBe(1);
    expect(lastLine(r.stdout)).toMatch(/^Plan failed: 1 error — AuthContext\/c3: .*MOOR_TEST_NOT_SET/);
  });

  test('drift with errors never says there is no drift', async () => {
    const dir = workdir({ 'm/c3.yaml': MISSING_ENV });
    const r = await run(dir, ['drift', 'm']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('No drift');
    expect(lastLine(r.stdout)).toMatch(/^Drift check failed: 1 error/);
  });

  test('an apply with nothing to do says so', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    expect((await run(dir, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const again = await run(dir, ['apply', 'm', '--auto-approve']);
    expect(again.code).toBe(0);
    expect(lastLine(again.stdout)).toBe('Apply complete: no changes.');
  });

  test('validate counts the files the errors are in, of the files read', async () => {
    const dir = workdir({ 'm/bad.yaml': INVALID, 'm/ok.yaml': authManifest('c1', { displayName: 'One' }) });
    const r = await run(dir, ['validate', 'm']);
    expect(r.stderr).toBe('2 errors, 0 warnings in 1 of 2 files\n');
  });
});

describe('the command line', () => {
  test('an unknown flag is one line with a suggestion', async () => {
    const r = await run(workdir(), ['plan', '--prun']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error: unknown option '--prun' (did you mean --prune?); see 'moor plan --help'\n");
  });

  test('an unknown command is one line with a suggestion', async () => {
    const r = await run(workdir(), ['plna']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error: unknown command 'plna' (did you mean plan?); see 'moor --help'\n");
  });

  test('the local-cloud banner comes only after the arguments are checked', async () => {
    const r = await run(workdir(), ['apply', 'm', '--auto-approve', '--parallelism', 'many']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error: --parallelism must be a positive integer, not 'many'\n");
  });

  test('--version and moor version name moor, Node.js and the state format', async () => {
    for (const args of [['--version'], ['version']]) {
      const r = await run(workdir(), args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^moor \d+\.\d+\.\d+\nnode v\d+\.\d+\.\d+\nstate format 1\n$/);
    }
  });

  test('help has an Examples section', async () => {
    const r = await run(workdir(), ['plan', '--help']);
    expect(r.stdout).toMatch(/\nExamples:\n {2}\$ moor plan /);
  });

  test('MOOR_PLAN_OUTPUT changes plan only; validate is untouched by it and by MOOR_OUTPUT', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const env = { MOOR_PLAN_OUTPUT: 'json', MOOR_OUTPUT: 'markdown' };
    expect(await run(dir, ['validate', 'm'], env)).toMatchObject({ code: 0, stdout: 'ok: 1 manifest in 1 file is valid\n' });
    expect(JSON.parse((await run(dir, ['plan', 'm'], env)).stdout)).toMatchObject({ format: 'moor-plan/1' });
  });

  test('a bad variable value is an error naming the variable', async () => {
    const r = await run(workdir(), ['apply', 'm', '--auto-approve'], { MOOR_LOCK_TIMEOUT: 'abc' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error: MOOR_LOCK_TIMEOUT: must be a number of seconds, not 'abc'\n");
  });

  test('FORCE_COLOR colours a plan off a terminal; --no-color and TERM=dumb keep it plain', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const esc = '\u001b[';
    expect((await run(dir, ['plan', 'm'], { NO_COLOR: undefined, FORCE_COLOR: '1' })).stdout).toContain(esc);
    expect((await run(dir, ['--no-color', 'plan', 'm'], { NO_COLOR: undefined, FORCE_COLOR: '1' })).stdout).not.toContain(esc);
    expect((await run(dir, ['plan', 'm'], { NO_COLOR: undefined, TERM: 'dumb' })).stdout).not.toContain(esc);
  });
});

// Nothing a user can do prints a stack trace: prompts answered with Ctrl-C/Ctrl-D, closed pipes,
// directories and missing files where files are expected. The built CLI, on a pty where needed.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir } from '../e2e/harness.js';
import { BIN } from '../e2e/processes.js';
import { runOnTerminal } from './terminal.js';

interface Run {
  code: number;
  out: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('close', (code) => done({ code: code ?? 1, out }));
  });
}

/** `moor apply m` on a terminal, answering the confirmation prompt with `keys`. */
function answerPrompt(cwd: string, keys: string): Promise<Run> {
  return runOnTerminal('Enter a value', keys, process.execPath, [BIN, 'apply', 'm'], { cwd, env: { ...process.env, NO_COLOR: '1' } });
}

function expectNoStack(output: string): void {
  expect(output).not.toMatch(/internal error|\n\s+at |Error: (write|read) E[A-Z]+/);
}

const lastLine = (text: string) => text.trimEnd().split(/\r?\n/).pop() ?? '';

describe('no stack traces', () => {
  test('Ctrl-C at the confirmation prompt cancels the apply with exit 130 and one line', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const result = await answerPrompt(dir, '\x03');
    expect(result.code, result.out).toBe(130);
    expect(lastLine(result.out)).toBe('Apply cancelled (interrupted); nothing was changed.');
    expectNoStack(result.out);
  });

  test('Ctrl-D at the confirmation prompt cancels the apply with exit 1 and one line', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const result = await answerPrompt(dir, '\x04');
    expect(result.code, result.out).toBe(1);
    expect(lastLine(result.out)).toBe('Apply cancelled: no answer (end of input); nothing was changed.');
    expectNoStack(result.out);
  });

  test('output piped into head -1 ends quietly with exit 0 (EPIPE)', async () => {
    const dir = workdir();
    const result = await run('bash', ['-c', `"${process.execPath}" "${BIN}" schema | head -1 >/dev/null; echo "exit=\${PIPESTATUS[0]}"`], dir);
    expect(result.out.trim()).toBe('exit=0');
  });

  test('--state naming a directory is one line naming it', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    mkdirSync(join(dir, 'statedir'));
    const result = await moor(dir, undefined, ['plan', 'm', '--state', 'statedir']);
    expect(result.code).toBe(1);
    expect(lastLine(result.stderr)).toBe('error: state file: cannot read statedir: is a directory, not a file');
    expectNoStack(result.stdout + result.stderr);
  });

  test('a saved plan that is a directory or missing is one line naming it', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    mkdirSync(join(dir, 'plandir'));
    for (const file of ['plandir', 'missing.json']) {
      const result = await moor(dir, undefined, ['apply', '--plan', file]);
      expect(result.code).toBe(1);
      expect(lastLine(result.stderr)).toMatch(new RegExp(`^error: .*${file}.*(directory|no such file)`));
      expectNoStack(result.stdout + result.stderr);
    }
  });

  test('a corrupt state file without a backup names no backup file', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    writeFileSync(join(dir, 'state.json'), '{bad');
    const result = await moor(dir, undefined, ['plan', 'm', '--state', 'state.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('state file state.json is corrupt');
    expect(result.stderr).toContain('state.json.backup does not exist');
    expect(result.stderr).not.toContain('is kept in state.json.backup');
    expectNoStack(result.stdout + result.stderr);
  });

  test('a corrupt state file is one line saying where it stops being JSON', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    writeFileSync(join(dir, 'state.json'), '{"version": 1,\n "serial": 2,\n "resources": {]}');
    const result = await moor(dir, undefined, ['plan', 'm', '--state', 'state.json']);
    expect(result.code).toBe(1);
    const error = result.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('moor: ')); // not the local cloud's notice
    expect(error).toEqual([expect.stringContaining("error: state file state.json is corrupt: not valid JSON at line 3, column 16: unexpected ']'.")]);
  });
});

// moor completion bash|zsh: the script completes commands, subcommands and options, and files after a command.
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { moor, workdir, writeFile } from '../e2e/harness.js';

/** What bash completes for the words typed so far (the last one being completed). */
function complete(script: string, cwd: string, words: string[]): string[] {
  const r = spawnSync(
    'bash',
    ['-c', `eval "$SCRIPT"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _moor; printf '%s\\n' "\${COMPREPLY[@]}"`],
    {
      cwd,
      env: { ...process.env, SCRIPT: script },
      encoding: 'utf8',
    },
  );
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('moor completion', () => {
  test('bash completes commands, subcommands, options and then files', async () => {
    const dir = workdir();
    writeFile(dir, 'manifests/app.yaml', 'x: 1\n');
    const r = await moor(dir, undefined, ['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(complete(r.stdout, dir, ['moor', 'pl'])).toEqual(['plan']);
    expect(complete(r.stdout, dir, ['moor', 'ou'])).toEqual(['outputs']);
    expect(complete(r.stdout, dir, ['moor', 'state', 'm'])).toEqual(['migrate', 'mv']);
    expect(complete(r.stdout, dir, ['moor', 'plan', '--lo'])).toEqual(['--lock', '--lock-timeout']);
    expect(complete(r.stdout, dir, ['moor', 'plan', 'man'])).toEqual(['manifests']);
  });

  test('zsh loads bashcompinit and the same completion', async () => {
    const r = await moor(workdir(), undefined, ['completion', 'zsh']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('autoload -U +X bashcompinit && bashcompinit');
    expect(r.stdout).toContain('complete -F _moor moor');
  });
});

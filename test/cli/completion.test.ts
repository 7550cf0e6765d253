// moor completion bash|zsh: the script completes commands, subcommands and options, and files after a command.
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { moor, workdir, writeFile } from '../e2e/harness.js';

/**
 * What bash completes for each list of words typed so far (the last one being completed), one after the
 * other in one shell that loaded the script once, as Tab pressed again and again in a terminal would.
 */
function complete(script: string, cwd: string, cases: readonly string[][]): string[][] {
  const END = '--end of completion--';
  const each = cases.map(
    (words) => `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _moor; printf '%s\\n' "\${COMPREPLY[@]}" '${END}'`,
  );
  const r = spawnSync('bash', ['-c', `eval "$SCRIPT"; ${each.join('; ')}`], {
    cwd,
    env: { ...process.env, SCRIPT: script },
    encoding: 'utf8',
  });
  const replies = r.stdout.split(`${END}\n`).slice(0, -1);
  if (replies.length !== cases.length) throw new Error(`bash completed ${replies.length} of ${cases.length} cases: ${r.stdout}${r.stderr}`);
  return replies.map((reply) => reply.split('\n').filter(Boolean).sort());
}

describe('moor completion', () => {
  test('bash completes commands, subcommands, options and then files', async () => {
    const dir = workdir();
    writeFile(dir, 'manifests/app.yaml', 'x: 1\n');
    const r = await moor(dir, undefined, ['completion', 'bash']);
    expect(r.code).toBe(0);
    const [pl, ou, stateM, planLo, planMan] = complete(r.stdout, dir, [
      ['moor', 'pl'],
      ['moor', 'ou'],
      ['moor', 'state', 'm'],
      ['moor', 'plan', '--lo'],
      ['moor', 'plan', 'man'],
    ]);
    expect(pl).toEqual(['plan']);
    expect(ou).toEqual(['outputs']);
    expect(stateM).toEqual(['migrate', 'mv']);
    expect(planLo).toEqual(['--lock', '--lock-timeout']);
    expect(planMan).toEqual(['manifests']);
  });

  test('zsh loads bashcompinit and the same completion', async () => {
    const r = await moor(workdir(), undefined, ['completion', 'zsh']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('autoload -U +X bashcompinit && bashcompinit');
    expect(r.stdout).toContain('complete -F _moor moor');
  });
});

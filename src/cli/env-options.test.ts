import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { bindEnvironment } from './env-options.js';

async function parse(args: string[], env: NodeJS.ProcessEnv) {
  let seen: Record<string, unknown> = {};
  const program = new Command('moor').exitOverride();
  program
    .command('plan')
    .option('--out <file>')
    .option('--target <address>', 'repeatable', (v: string, prev?: string[]) => [...(prev ?? []), v])
    .option('--output <format>', 'format', 'text')
    .option('--prune')
    .option('--parallelism <n>')
    .action((opts: Record<string, unknown>) => {
      seen = opts;
    });
  program
    .command('local-cloud')
    .option('--port <n>')
    .action((opts: Record<string, unknown>) => {
      seen = opts;
    });
  bindEnvironment(program, env, new Set(['local-cloud']));
  await program.parseAsync(['node', 'moor', ...args]);
  return seen;
}

describe('options from MOOR_* variables', () => {
  test.each([
    ['a value option takes its variable', ['plan'], { MOOR_OUT: 'p.json' }, { out: 'p.json' }],
    ['the command line wins over the variable', ['plan', '--out', 'cli.json'], { MOOR_OUT: 'env.json' }, { out: 'cli.json' }],
    ['the variable wins over the default', ['plan'], { MOOR_PLAN_OUTPUT: 'json' }, { output: 'json' }],
    ["--output reads its own command's variable only", ['plan'], { MOOR_OUTPUT: 'json', MOOR_VALIDATE_OUTPUT: 'json' }, { output: 'text' }],
    ['a value goes through the option parser', ['plan'], { MOOR_TARGET: 'ContainerGroup/web' }, { target: ['ContainerGroup/web'] }],
    ['a flag is set by true', ['plan'], { MOOR_PRUNE: 'true' }, { prune: true }],
  ])('%s', async (_reason, args, env, expected) => {
    expect(await parse(args, env)).toMatchObject(expected);
  });

  test('a flag is never set by false', async () => {
    expect(await parse(['plan'], { MOOR_PRUNE: 'false' })).not.toHaveProperty('prune');
  });

  test('a flag is left off by false, 0 or no', async () => {
    for (const off of ['false', '0', 'no', 'NO']) expect(await parse(['plan'], { MOOR_PRUNE: off })).not.toHaveProperty('prune');
  });

  test("a flag's variable with any other value is an error naming it (a typo never silently turns it off)", async () => {
    await expect(parse(['plan'], { MOOR_PRUNE: 'ture' })).rejects.toThrow("MOOR_PRUNE: 'ture' must be true, 1 or yes (on), or false, 0 or no (off)");
  });

  test('MOOR_PARALLELISM is left to the config, which reads and checks it once for every command: it never fills --parallelism', async () => {
    expect(await parse(['plan'], { MOOR_PARALLELISM: 'abc' })).not.toHaveProperty('parallelism');
    expect(await parse(['plan', '--parallelism', '3'], { MOOR_PARALLELISM: '5' })).toMatchObject({ parallelism: '3' });
  });

  test('a command that reads its own variables is left alone', async () => {
    expect(await parse(['local-cloud'], { MOOR_PORT: '80' })).toEqual({});
  });
});

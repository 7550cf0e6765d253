// The command reference (docs/commands/) is the CLI's own definitions written out: the committed
// pages are exactly what `npm run docs` makes, and every command `moor --help` lists has a page.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandPages } from '../../src/cli/command-docs.js';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';

const DIR = join(import.meta.dirname, '..', '..', 'docs', 'commands');
const RUN_DOCS = "the command reference differs from the CLI's definitions: run `npm run docs` and commit docs/commands/";

/** The command names of a `Commands:` section of help (not `help` itself). */
async function commandsInHelp(argv: readonly string[]): Promise<string[]> {
  const io = memoryIo({ env: {} });
  expect(await main(['node', 'moor', ...argv, '--help'], io)).toBe(0);
  const section = /\nCommands:\n([\s\S]*?)(\n\n|$)/.exec(io.out());
  if (!section) return [];
  return section[1]
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => !!name && name !== 'help');
}

describe('the command reference', () => {
  it('the committed pages are the ones npm run docs writes, and no other', () => {
    const pages = commandPages();
    const committed = readdirSync(DIR)
      .filter((name) => name.endsWith('.md'))
      .sort();
    expect(committed, RUN_DOCS).toEqual([...pages.keys()].sort());
    for (const [name, text] of pages) expect(readFileSync(join(DIR, name), 'utf8'), `${RUN_DOCS} (${name})`).toBe(text);
  });

  it('the pages are the same however often they are made', () => {
    expect([...commandPages()]).toEqual([...commandPages()]);
  });

  it('every command and subcommand of moor --help has a page, with its synopsis', async () => {
    const pages = commandPages();
    const top = await commandsInHelp([]);
    expect(top).toContain('plan');
    for (const command of top) {
      expect(pages.get(`${command}.md`), command).toContain(`\nmoor ${command} `);
      for (const sub of await commandsInHelp([command])) {
        expect(pages.get(`${command}-${sub}.md`), `${command} ${sub}`).toContain(`\nmoor ${command} ${sub}`);
      }
    }
  });

  it("a page holds each option with its default and its environment variable, and the command's examples", () => {
    const plan = commandPages().get('plan.md')!;
    expect(plan).toContain('| `--output <format>` |');
    expect(plan).toMatch(/\| `--output <format>` \| [^\n]* \| `text` \| `MOOR_PLAN_OUTPUT` \|/);
    expect(plan).toContain('moor plan manifests/ --detailed-exitcode');
    expect(plan).toContain('(../plan-and-apply.md#moor-plan)');
    expect(plan).toContain('## Exit codes\n\n| code | meaning |\n| --- | --- |\n| 0 | planned (with --detailed-exitcode: no changes) |');
  });

  it('help says what the exit codes mean before its examples, and the page says the same', async () => {
    const io = memoryIo({ env: {} });
    expect(await main(['node', 'moor', 'drift', '--help'], io)).toBe(0);
    expect(io.out()).toMatch(/\nExit codes:\n {2}0 {3}no drift\n {2}1 {3}an error[^\n]*\n {2}2 {3}drift found\n\nExamples:\n/);
    expect(commandPages().get('drift.md')).toContain('| 2 | drift found |');
  });
});

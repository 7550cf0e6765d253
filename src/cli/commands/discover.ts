// moor discover: live resources of a scope -> manifests (and, with --import, state). The work is
// src/discover's; this reads the options, shows progress and renders the report.
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { UserError } from '../../core/diagnostics.js';
import type { RegisterCommand } from './register-command.js';
import { withSession } from '../session-options.js';
import type { IoHost } from '../io-host.js';

interface DiscoverFlags {
  subscription?: string;
  resourceGroup: string[];
  workspace: string[];
  authContexts?: boolean;
  out: string;
  import?: boolean;
  output: 'text' | 'json';
}

const collect = (value: string, previous: string[]) => [...previous, value];

export const registerDiscover: RegisterCommand = (program, io, setExit) => {
  program
    .command('discover')
    .description('write manifests for the live resources of a scope (and adopt them into state with --import)')
    .option('--subscription <id>', 'list the container groups of this subscription')
    .option('--resource-group <name>', 'only these resource groups of the subscription (repeatable)', collect, [])
    .option('--workspace <id>', 'list the push datasets of this workspace (repeatable)', collect, [])
    .option('--auth-contexts', "list the tenant's auth contexts")
    .requiredOption('--out <dir>', 'the folder the manifests are written in (existing files are never overwritten)')
    .option('--import', "record every resource written in state, with 'moor import' verification, so the next plan is empty")
    .addOption(new Option('--output <format>', 'text or json').choices(['text', 'json']).default('text'))
    .action(async (flags: DiscoverFlags, command: Command) => {
      setExit(await runDiscover(io, flags, command));
    });
};

async function runDiscover(io: IoHost, flags: DiscoverFlags, command: Command): Promise<number> {
  if (flags.resourceGroup.length > 0 && flags.subscription === undefined) throw new UserError('--resource-group needs --subscription');
  if (flags.subscription === undefined && flags.workspace.length === 0 && !flags.authContexts) {
    throw new UserError('name a scope: --subscription S [--resource-group RG]..., --workspace W..., or --auth-contexts');
  }
  const { discover } = await import('../../discover/discover.js');
  const { renderDiscoverText, renderDiscoverJson } = await import('../../discover/render.js');
  const terminal = Boolean(io.stderr.isTTY);
  let total = 0;
  const listed = (kind: string, count: number, where: string) => {
    total += count;
    // A terminal sees one line that counts up; a log gets a plain line per listing.
    io.stderr.write(terminal ? `\r\x1b[Klisted ${total} resources (${count} ${kind} in ${where})` : `listed ${count} ${kind} in ${where}\n`);
  };
  return withSession(io, command, async (session) => {
    const report = await discover(session, {
      scope: { subscriptionId: flags.subscription, resourceGroups: flags.resourceGroup, workspaces: flags.workspace, tenant: Boolean(flags.authContexts) },
      out: resolve(io.cwd, flags.out),
      import: Boolean(flags.import),
      cwd: io.cwd,
      env: io.env,
      listed,
    });
    if (terminal && total > 0) io.stderr.write('\n');
    io.stdout.write(flags.output === 'json' ? renderDiscoverJson(report) : renderDiscoverText(report, { import: Boolean(flags.import), out: flags.out }));
    const failed = report.diagnostics.some((d) => d.severity === 'error') || report.notImported.length > 0;
    return failed ? 1 : 0;
  });
}

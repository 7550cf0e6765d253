// moor state list | show ADDR | rm ADDR | resolve ADDR | mv ADDR ADDR | migrate --to URL | unlock [--force]: look into and repair the state backend.
import { Option, type Command } from 'commander';
import { UserError } from '../../core/diagnostics.js';
import { jsonText } from '../../core/foreign-text.js';
import type { ResourceRecord, StateBackend, StateDocument } from '../../engine/state/types.js';
import { globalOptions, runConfig } from '../session-options.js';
import type { MoorConfig } from '../../engine/config.js';
import type { RegisterCommand } from './register-command.js';
import type { IoHost } from '../io-host.js';

export const registerState: RegisterCommand = (program, io, setExit) => {
  const state = program.command('state').description('inspect and repair moor state');
  state
    .command('list')
    .description('list the addresses in state')
    .addOption(new Option('--output <format>', 'table or json').choices(['table', 'json']).default('table'))
    .action(async (flags: { output: string }, command: Command) => setExit(await withBackend(io, command, (b) => list(io, b, flags.output))));
  state
    .command('show')
    .description('print the state record of an address (secrets only as hashes)')
    .argument('<address>', 'e.g. ContainerGroup/web')
    .action(async (address: string, _flags: unknown, command: Command) => setExit(await withBackend(io, command, (b) => show(io, b, address))));
  state
    .command('rm')
    .description('forget an address: moor stops managing it; the live resource is left alone')
    .argument('<address>', 'e.g. ContainerGroup/web')
    .option('--force', 'also forget a protected resource')
    .action(async (address: string, flags: { force?: boolean }, command: Command) =>
      setExit(await withBackend(io, command, (b) => remove(io, b, address, flags.force === true))),
    );
  state
    .command('resolve')
    .description('record how a job run of unknown outcome ended, once you have checked the service')
    .argument('<address>', 'e.g. DatabaseExport/nightly')
    .option('--succeeded', 'it happened: what depends on it may run')
    .option('--failed', 'it failed or never started: the next apply runs it again')
    .action(async (address: string, flags: { succeeded?: boolean; failed?: boolean }, command: Command) =>
      setExit(await withBackend(io, command, (b) => resolve(io, b, address, resolutionOf(flags)))),
    );
  state
    .command('mv')
    .description('move a record to another address of the same kind (after renaming a manifest)')
    .argument('<from>', 'e.g. ContainerGroup/web')
    .argument('<to>', 'e.g. ContainerGroup/frontend')
    .action(async (from: string, to: string, _flags: unknown, command: Command) => {
      const { moveAddress } = await import('../state-edit.js');
      setExit(await withBackend(io, command, (b) => moveAddress(io, b, from, to)));
    });
  state
    .command('migrate')
    .description('copy every record, run history included, to another backend (file or postgres://)')
    .requiredOption('--to <file|url>', 'the new state: a file path or a postgres:// URL; it must hold no resources')
    .action(async (flags: { to: string }, command: Command) => {
      const { migrateState } = await import('../state-edit.js');
      const { openStateBackend } = await import('../../engine/state/open-backend.js');
      const { withStackWorkspace } = await import('../../engine/config-stacks.js');
      setExit(
        await withBackend(io, command, async (source, config) => {
          // A stack's state moves to its own workspace of a PostgreSQL database unless --to names one.
          const to = config.stack ? withStackWorkspace(flags.to, config.stack.name) : flags.to;
          const { guardStack } = await import('../../engine/state/stack-state.js');
          const target = guardStack(openStateBackend(to, io.cwd, undefined, io.masker), config.stack?.name);
          try {
            return await migrateState(io, source, target);
          } finally {
            await target.close();
          }
        }),
      );
    });
  state
    .command('unlock')
    .description('clear a lock left by a run that is gone')
    .option('--force', 'clear the lock even if its holder may still be running')
    .action(async (flags: { force?: boolean }, command: Command) => setExit(await withBackend(io, command, (b) => unlock(io, b, flags.force === true))));
};

/**
 * Opens the backend named by --state / MOOR_STATE / the config's `state` (the stack's with --stack),
 * without starting any service.
 */
export async function withBackend(io: IoHost, command: Command, fn: (backend: StateBackend, config: MoorConfig) => Promise<number>): Promise<number> {
  const { openStackState } = await import('../../engine/state/stack-state.js');
  const config = await runConfig(io, command);
  const { noticeSink } = await import('../../core/events.js');
  const backend = openStackState(
    globalOptions(command).state,
    config,
    io.cwd,
    noticeSink((line) => io.stderr.write(line + '\n')),
    io.masker,
  );
  try {
    return await fn(backend, config);
  } finally {
    await backend.close();
  }
}

async function list(io: IoHost, backend: StateBackend, output: string): Promise<number> {
  const doc = await backend.read();
  if (output === 'json') {
    const { stateListJson } = await import('../state-edit.js');
    io.stdout.write(stateListJson(doc));
    return 0;
  }
  const rows = Object.keys(doc.resources)
    .sort()
    .map((address) => {
      const r = doc.resources[address];
      return [address, r.kind, r.id ?? '-', r.updatedAt, r.protect ? 'protected' : ''];
    });
  if (rows.length === 0) {
    io.stderr.write(`No resources in state (${backend.location}).\n`);
    return 0;
  }
  // A header row, as kubectl get prints one: the columns say what they hold (scripts: --output json).
  rows.unshift(['ADDRESS', 'KIND', 'ID', 'UPDATED', 'PROTECT']);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows)
    io.stdout.write(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd() + '\n',
    );
  return 0;
}

async function show(io: IoHost, backend: StateBackend, address: string): Promise<number> {
  const record = recordOf(await backend.read(), address, backend);
  io.stdout.write(jsonText({ address, ...record }, 2) + '\n');
  return 0;
}

async function remove(io: IoHost, backend: StateBackend, address: string, force: boolean): Promise<number> {
  const lock = await backend.lock('state rm');
  try {
    const doc = await backend.read();
    const record = recordOf(doc, address, backend);
    if (record.protect && !force) {
      throw new UserError(`${address} is protected (metadata.protect); 'moor state rm --force ${address}' forgets it anyway`);
    }
    const { [address]: _removed, ...resources } = doc.resources;
    await backend.write({ version: 1, resources, ...(doc.extras ? { extras: doc.extras } : {}) });
    io.stdout.write(`Removed ${address}${record.id ? ` (${record.id})` : ''} from state. The live resource is untouched; moor no longer manages it.\n`);
    return 0;
  } finally {
    await backend.unlock(lock);
  }
}

function resolutionOf(flags: { succeeded?: boolean; failed?: boolean }): 'succeeded' | 'failed' {
  if (flags.succeeded === flags.failed) throw new UserError('state resolve needs exactly one of --succeeded or --failed');
  return flags.succeeded ? 'succeeded' : 'failed';
}

async function resolve(io: IoHost, backend: StateBackend, address: string, as: 'succeeded' | 'failed'): Promise<number> {
  const { resolveRecord } = await import('../../engine/state/resolve-outcome.js');
  const lock = await backend.lock('state resolve');
  try {
    const doc = await backend.read();
    const record = resolveRecord(address, recordOf(doc, address, backend), as);
    await backend.write({ version: 1, resources: { ...doc.resources, [address]: record }, ...(doc.extras ? { extras: doc.extras } : {}) });
    const next = as === 'succeeded' ? 'what depends on it runs on the next apply' : 'the next apply runs it again';
    io.stdout.write(`Resolved ${address} as ${as}: ${next}.\n`);
    return 0;
  } finally {
    await backend.unlock(lock);
  }
}

async function unlock(io: IoHost, backend: StateBackend, force: boolean): Promise<number> {
  const { describeLock } = await import('../../engine/state/describe-lock.js');
  const held = await backend.forceUnlock(force);
  const said =
    held === undefined
      ? `No lock held on ${backend.location}.`
      : 'unreadableFile' in held
        ? `Removed an unreadable lock file (${held.unreadableFile}).`
        : `Removed the lock held by ${describeLock(held)}.`;
  io.stdout.write(`${said}\n`);
  return 0;
}

function recordOf(doc: StateDocument, address: string, backend: StateBackend): ResourceRecord {
  const record = doc.resources[address] as ResourceRecord | undefined;
  if (!record) throw new UserError(`${address} is not in state (${backend.location}); 'moor state list' shows what it holds`);
  return record;
}

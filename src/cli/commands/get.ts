// moor get: read commands over the services — usage, name availability, eventstreams, billing transactions.
import { Option, type Command } from 'commander';
import type { RegisterCommand } from './register-command.js';
import { parseOutput, withSession } from '../session-options.js';
import { GET_FORMATS, printRows, type Column, type GetFormat } from '../get-output.js';
import { billingAccountArg, invoiceArg, locationArg, nonEmptyArg, topArg, uuidArg } from '../get-arguments.js';
import type { NameAvailability, Usage } from '../../providers/arm.js';
import type { Eventstream } from '../../providers/fabric.js';
import type { IoHost } from '../io-host.js';

const outputOption = () => new Option('--output <format>', 'table, json or csv').default('table').argParser((v) => parseOutput(v, GET_FORMATS));

export const registerGet: RegisterCommand = (program, io, setExit) => {
  const get = program.command('get').description('read live data: usage, name-availability, eventstreams, transactions');
  get
    .command('usage')
    .description('current usage and limits of a subscription in a location')
    .requiredOption('--subscription <id>', 'subscription id (UUID)')
    .requiredOption('--location <region>', 'region name, e.g. westeurope')
    .addOption(outputOption())
    .action(async (flags: { subscription: string; location: string; output: GetFormat }, command: Command) => {
      setExit(await getUsage(io, flags, command));
    });
  get
    .command('name-availability')
    .description('whether a server name can be used (exit 0 either way)')
    .argument('<name>', 'server name')
    .requiredOption('--subscription <id>', 'subscription id (UUID)')
    .option('--type <type>', 'resource type (default Vendor.Sql/servers)')
    .addOption(outputOption())
    .action(async (name: string, flags: { subscription: string; type?: string; output: GetFormat }, command: Command) => {
      setExit(await getNameAvailability(io, name, flags, command));
    });
  get
    .command('eventstreams')
    .description('eventstreams of a workspace, every page')
    .requiredOption('--workspace <id>', 'workspace id (UUID)')
    .option('--root-folder <id>', 'only this folder (UUID)')
    .option('--no-recursive', 'leave out nested folders')
    .addOption(outputOption())
    .action(async (flags: { workspace: string; rootFolder?: string; recursive: boolean; output: GetFormat }, command: Command) => {
      setExit(await getEventstreams(io, flags, command));
    });
  get
    .command('transactions')
    .description('transactions of an invoice, every page, with totals per currency')
    .requiredOption('--billing-account <name>', 'billing account name')
    .requiredOption('--invoice <name>', 'invoice name, e.g. G012345678')
    .option('--filter <expr>', "the service's filter expression")
    .option('--search <text>', 'free-text search over string fields')
    .option('--top <n>', 'page size, at most 50 (every page is read)')
    .addOption(outputOption())
    .action(async (flags: TransactionFlags, command: Command) => {
      setExit(await getTransactions(io, flags, command));
    });
};

const USAGE_COLUMNS: Column<Usage>[] = [
  { header: 'name', value: (u) => (u.name as Usage['name'] | undefined)?.value }, // the service's answer, as it gives it
  { header: 'current', value: (u) => u.currentValue, align: 'right' },
  { header: 'limit', value: (u) => u.limit, align: 'right' },
  { header: 'unit', value: (u) => u.unit },
];

async function getUsage(io: IoHost, flags: { subscription: string; location: string; output: GetFormat }, command: Command): Promise<number> {
  const sub = uuidArg('--subscription', flags.subscription);
  const location = locationArg(flags.location);
  const usage = await withSession(io, command, (s) => s.providers.arm.listUsage(sub, location), { anyStack: true });
  printRows(io, flags.output, USAGE_COLUMNS, usage);
  return 0;
}

const NAME_COLUMNS: Column<NameAvailability>[] = [
  { header: 'name', value: (n) => n.name },
  { header: 'available', value: (n) => n.available },
  { header: 'reason', value: (n) => n.reason },
  { header: 'message', value: (n) => n.message },
];

async function getNameAvailability(
  io: IoHost,
  name: string,
  flags: { subscription: string; type?: string; output: GetFormat },
  command: Command,
): Promise<number> {
  const sub = uuidArg('--subscription', flags.subscription);
  nonEmptyArg('NAME', name);
  const type = flags.type === undefined ? undefined : nonEmptyArg('--type', flags.type);
  const answer = await withSession(io, command, (s) => s.providers.arm.checkNameAvailability(sub, name, type), { anyStack: true });
  const row = { ...answer, name: answer.name ?? name };
  printRows(io, flags.output, NAME_COLUMNS, [row], { json: row });
  return 0;
}

const EVENTSTREAM_COLUMNS: Column<Eventstream>[] = [
  { header: 'id', value: (e) => e.id },
  { header: 'displayName', value: (e) => e.displayName },
  { header: 'folderId', value: (e) => e.folderId },
  { header: 'description', value: (e) => e.description, maxWidth: 60 },
];

async function getEventstreams(
  io: IoHost,
  flags: { workspace: string; rootFolder?: string; recursive: boolean; output: GetFormat },
  command: Command,
): Promise<number> {
  const workspace = uuidArg('--workspace', flags.workspace);
  const rootFolderId = flags.rootFolder === undefined ? undefined : uuidArg('--root-folder', flags.rootFolder);
  // The service's default is recursive; say so only when the user turned it off.
  const recursive = flags.recursive ? undefined : false;
  const items = await withSession(io, command, (s) => s.providers.fabric.listEventstreams(workspace, { rootFolderId, recursive }), { anyStack: true });
  printRows(io, flags.output, EVENTSTREAM_COLUMNS, items);
  return 0;
}

interface TransactionFlags {
  billingAccount: string;
  invoice: string;
  filter?: string;
  search?: string;
  top?: string;
  output: GetFormat;
}

async function getTransactions(io: IoHost, flags: TransactionFlags, command: Command): Promise<number> {
  const account = billingAccountArg(flags.billingAccount);
  const invoice = invoiceArg(flags.invoice);
  const top = topArg(flags.top);
  const { transactionColumns, totalsByCurrency, totalRows } = await import('../get-transactions.js');
  const transactions = await withSession(
    io,
    command,
    (s) => s.providers.billing.listTransactions(account, invoice, { filter: flags.filter, search: flags.search, top }),
    { anyStack: true },
  );
  const totals = totalsByCurrency(transactions);
  const full = flags.output === 'csv';
  printRows(io, flags.output, transactionColumns(full), transactions, { json: { transactions, totals }, extra: totalRows(totals, full) });
  return 0;
}

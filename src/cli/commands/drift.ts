// moor drift: did live resources move away from the last apply? Exit 0 none, 2 drift, 1 error.
import { Option, type Command } from 'commander';
import type { RegisterCommand } from './register-command.js';
import { booleanArg, globalOptions, lockTimeoutArg, parseOutput, withSession } from '../session-options.js';
import type { Session } from '../../engine/session.js';
import type { JsonObject } from '../../core/json.js';
import type { DriftOperationResult } from '../../engine/operations/drift-operation.js';
import type { RunSink } from '../../engine/operations/run-events.js';
import type { EventSink } from '../../core/events.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../plan-output.js';
import type { IoHost } from '../io-host.js';

interface DriftFlags {
  output: OutputFormat;
  notify?: boolean;
  allStacks?: boolean;
  lock: boolean;
  lockTimeout?: number;
  /** --accept alone: every drifted resource; with addresses: those. */
  accept?: boolean | string[];
  dryRun?: boolean;
}

export const registerDrift: RegisterCommand = (program, io, setExit) => {
  program
    .command('drift')
    .description('report live resources that moved away from the last apply (exit 2 when any did)')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .addOption(
      new Option('--output <format>', 'text, json, markdown or github (annotations and the job summary)')
        .default('text')
        .argParser((v) => parseOutput(v, OUTPUT_FORMATS)),
    )
    .option('--notify', 'post the drift report to the configured conversation')
    .option('--all-stacks', 'check every stack of moor.config.yaml and report each (exit code the worst)')
    .addOption(
      new Option('--lock [bool]', 'take the state lock while reading state; --lock=false checks read-only, without it').default(true).argParser(booleanArg),
    )
    .option('--lock-timeout <seconds>', "wait this long for another run's state lock (default: fail at once)", lockTimeoutArg)
    .option('--accept [addresses...]', 'write the drifted live values (of these addresses) into the manifest files that set them, and print the diff')
    .option('--dry-run', 'with --accept: print the diff, write nothing')
    .action(async (paths: string[], flags: DriftFlags, command: Command) => {
      if (flags.accept !== undefined) {
        setExit(await runAccept(io, paths, flags, command));
        return;
      }
      if (flags.dryRun) throw new (await import('../../core/diagnostics.js')).UserError('--dry-run goes with --accept');
      setExit(await runDrift(io, paths, flags, command));
    });
};

async function runDrift(io: IoHost, paths: string[], flags: DriftFlags, command: Command): Promise<number> {
  if (flags.allStacks) return driftAllStacks(io, paths, flags, command);
  const { reporterFor } = await import('../reporters/reporter.js');
  const { reportingFailure } = await import('../reporters/reporting-failure.js');
  const reporter = await reporterFor(io, flags.output, { terminal: false, applying: false });
  return reportingFailure(reporter, 'drift', () =>
    withSession(io, command, async (session, events) => (await driftStack(io, session, paths, flags, { events, results: reporter.events })).code),
  );
}

/** drift --accept: the diff of the files it writes (stdout), what it cannot write (stderr, exit 1). */
async function runAccept(io: IoHost, paths: string[], flags: DriftFlags, command: Command): Promise<number> {
  const { UserError } = await import('../../core/diagnostics.js');
  if (flags.allStacks) throw new UserError("--accept writes one stack's files: give --stack NAME, not --all-stacks");
  if (flags.notify) throw new UserError('--accept changes files and notifies nobody: leave out --notify');
  const { acceptOperation } = await import('../../engine/operations/accept-operation.js');
  const { renderAccept } = await import('../accept-output.js');
  const addresses = Array.isArray(flags.accept) ? flags.accept : [];
  const dryRun = flags.dryRun === true;
  const { eventsNotify } = await import('../../engine/operations/operation-host.js');
  return withSession(io, command, async (session, events) => {
    const host = { cwd: io.cwd, env: { ...io.env }, notify: eventsNotify(events, () => undefined) };
    const result = await acceptOperation(session, { paths, addresses, dryRun, lock: { take: flags.lock, timeoutMs: (flags.lockTimeout ?? 0) * 1000 } }, host);
    return renderAccept(io, result, { dryRun, stack: session.config.stack?.name });
  });
}

/** One stack's drift (or the manifests' without stacks) through the engine's drift operation; `to.results` gets its result, `to.events` the rest. */
async function driftStack(
  io: IoHost,
  session: Session,
  paths: string[],
  flags: DriftFlags,
  to: { events: EventSink; results: RunSink },
): Promise<DriftOperationResult> {
  const { eventsNotify } = await import('../../engine/operations/operation-host.js');
  const { drift } = await import('../../engine/operations/drift-operation.js');
  const notify = flags.notify ? (await import('../notify-run.js')).notifierOf(io, session, paths) : undefined;
  return drift(
    session,
    { paths, notify, lock: { take: flags.lock, timeoutMs: (flags.lockTimeout ?? 0) * 1000 } },
    { cwd: io.cwd, env: io.env, notify: eventsNotify(to.events, to.results) },
  );
}

/** drift --all-stacks: every stack in turn, one report, the worst exit code. */
async function driftAllStacks(io: IoHost, paths: string[], flags: DriftFlags, command: Command): Promise<number> {
  const { eachStack, namingStack, stacksOf, worstExitCode } = await import('../all-stacks.js');
  const { reporterFor } = await import('../reporters/reporter.js');
  const { formatDiagnostic, UserError } = await import('../../core/diagnostics.js');
  const { renderPlanJson } = await import('../../engine/render/index.js');
  const { loadConfig } = await import('../../engine/config.js');
  const g = globalOptions(command);
  // MOOR_STACK set in the environment is no choice made for this run: only --stack is refused.
  if (g.stack?.source === 'flag') throw new UserError('--all-stacks checks every stack: do not also give --stack');
  const stacks = stacksOf(loadConfig(g.config, io.cwd, io.env));
  // Each stack's drift is reported with the others' once all are checked (stacks_ready), not as it is ready.
  const later: RunSink = () => undefined;
  const runs = await eachStack(stacks, (stack) =>
    withSession(
      io,
      command,
      async (session, events) => {
        const { drift, code } = await driftStack(io, session, paths, flags, { events, results: later });
        return { stack, plan: drift, document: JSON.parse(renderPlanJson(drift)) as JsonObject, code };
      },
      { stack: { name: stack, source: 'named' } },
    ),
  );
  for (const r of runs) for (const d of r.plan.diagnostics) io.stderr.write(formatDiagnostic(namingStack(d, r.stack)) + '\n');
  await (await reporterFor(io, flags.output, { terminal: false, applying: false })).events({ type: 'stacks_ready', mode: 'drift', runs });
  return worstExitCode(runs.map((r) => r.code));
}

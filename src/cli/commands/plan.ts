// moor plan: what apply would change, as text, JSON or markdown; optionally saved for apply --plan.
import { Option, type Command } from 'commander';
import type { RegisterCommand } from './register-command.js';
import { addPlanShapeOptions } from '../plan-shape-options.js';
import type { PlanShapeFlags } from '../plan-inputs.js';
import { booleanArg, globalOptions, lockTimeoutArg, parseOutput, withSession } from '../session-options.js';
import { PLAN_OUTPUT_FORMATS, type OutputFormat } from '../plan-output.js';
import { UserError } from '../../core/diagnostics.js';
import type { Session } from '../../engine/session.js';
import type { PlanInputs } from '../../engine/plan/plan-document.js';
import type { PlanOperationResult } from '../../engine/operations/plan-operation.js';
import type { RunSink } from '../../engine/operations/run-events.js';
import type { EventSink } from '../../core/events.js';
import type { IoHost } from '../io-host.js';

interface PlanFlags extends PlanShapeFlags {
  out?: string;
  detailedExitcode?: boolean;
  output: OutputFormat;
  notify?: boolean;
  lock: boolean;
  lockTimeout?: number;
  allStacks?: boolean;
}

export const registerPlan: RegisterCommand = (program, io, setExit) => {
  const planCommand = program
    .command('plan')
    .description('show what apply would change, field by field')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .option('--out <file>', 'save the plan for `moor apply --plan FILE`')
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when there are none')
    .addOption(
      new Option('--output <format>', 'text, json, markdown, github (annotations and the job summary) or jsonl (one JSON event per line)')
        .default('text')
        .argParser((v) => parseOutput(v, PLAN_OUTPUT_FORMATS)),
    );
  addPlanShapeOptions(planCommand, 'plan')
    .option('--notify', 'post a summary to the configured conversation')
    .addOption(
      new Option('--lock [bool]', 'take the state lock while reading state; --lock=false plans read-only, without it').default(true).argParser(booleanArg),
    )
    .option('--lock-timeout <seconds>', "wait this long for another run's state lock (default: fail at once)", lockTimeoutArg)
    .option('--all-stacks', 'plan every stack of moor.config.yaml and report each (text, json, markdown or github; exit code the worst)')
    .action(async (paths: string[], flags: PlanFlags, command: Command) => {
      setExit(await runPlan(io, paths, flags, command));
    });
};

async function runPlan(io: IoHost, paths: string[], flags: PlanFlags, command: Command): Promise<number> {
  const { planInputs } = await import('../plan-inputs.js');
  // Arguments are checked before the session starts (and the local cloud says it is there).
  const inputs = planInputs(paths, flags, globalOptions(command).stack?.name);
  if (flags.allStacks) return planAllStacks(io, paths, flags, command);
  const { reporterFor } = await import('../reporters/reporter.js');
  const { reportingFailure } = await import('../reporters/reporting-failure.js');
  const reporter = await reporterFor(io, flags.output, { terminal: false, applying: false });
  // A kind's progress while planning (KindContext.log), retries and throttles come as events.
  return reportingFailure(reporter, 'plan', () =>
    withSession(
      io,
      command,
      async (session, events) => (await planStack(io, session, inputs, flags, { events, results: reporter.events }, reporter.wantsDocument)).code,
      // The session's own events (notices, retries) are shown at once; only a run's results (plan_ready, apply_*) make a reporter wait, and those come through the operation, which awaits them.
      { events: (e) => void reporter.events(e) },
    ),
  );
}

/** Plans one stack (or the manifests without stacks) through the engine's plan operation; `to.results` gets its result, `to.events` the rest. */
async function planStack(
  io: IoHost,
  session: Session,
  inputs: PlanInputs,
  flags: PlanFlags,
  to: { events: EventSink; results: RunSink },
  document: boolean,
): Promise<PlanOperationResult> {
  const { plan } = await import('../../engine/operations/plan-operation.js');
  const { eventsNotify } = await import('../../engine/operations/operation-host.js');
  return plan(
    session,
    {
      inputs,
      lock: { take: flags.lock, timeoutMs: (flags.lockTimeout ?? 0) * 1000 },
      out: flags.out,
      document,
      detailedExitcode: flags.detailedExitcode,
      notify: flags.notify ? (await import('../notify-run.js')).notifierOf(io, session, inputs.paths) : undefined,
    },
    { cwd: io.cwd, env: io.env, notify: eventsNotify(to.events, to.results) },
  );
}

/** plan --all-stacks: every stack in turn, one report; a saved plan is one stack's, so --out is refused. */
async function planAllStacks(io: IoHost, paths: string[], flags: PlanFlags, command: Command): Promise<number> {
  const { eachStack, stacksOf, worstExitCode } = await import('../all-stacks.js');
  const { reporterFor } = await import('../reporters/reporter.js');
  const reporter = await reporterFor(io, flags.output, { terminal: false, applying: false });
  const { formatDiagnostic } = await import('../../core/diagnostics.js');
  const { namingStack } = await import('../all-stacks.js');
  const { planInputs } = await import('../plan-inputs.js');
  const { loadConfig } = await import('../../engine/config.js');
  const g = globalOptions(command);
  // MOOR_STACK set in the environment is no choice made for this run: only --stack is refused.
  if (g.stack?.source === 'flag') throw new UserError('--all-stacks plans every stack: do not also give --stack');
  if (flags.out) throw new UserError("--all-stacks cannot save a plan (--out): a saved plan is one stack's; plan --stack NAME --out FILE");
  if (reporter.forPrograms) throw new UserError('--all-stacks prints text, json, markdown or github, not jsonl');
  const stacks = stacksOf(loadConfig(g.config, io.cwd, io.env));
  // Each stack's plan is reported with the others' once all are planned (stacks_ready), not as it is ready.
  const later: RunSink = () => undefined;
  const runs = await eachStack(stacks, (stack) =>
    withSession(
      io,
      command,
      async (session, events) => {
        const { plan, document, code } = await planStack(
          io,
          session,
          planInputs(paths, flags, stack),
          flags,
          { events, results: later },
          reporter.wantsDocument,
        );
        return { stack, plan, document, code };
      },
      { stack: { name: stack, source: 'named' } },
    ),
  );
  // The JSON and markdown carry every stack's errors; a pipeline log still wants them on stderr, each naming its stack.
  for (const r of runs) for (const d of r.plan.diagnostics) io.stderr.write(formatDiagnostic(namingStack(d, r.stack)) + '\n');
  await reporter.events({ type: 'stacks_ready', mode: flags.refreshOnly ? 'drift' : 'plan', runs });
  return worstExitCode(runs.map((r) => r.code));
}

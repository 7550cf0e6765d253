// moor apply: plan, confirm, then make live resources match, recording each change in state.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { UserError } from '../../core/diagnostics.js';
import type { RegisterCommand } from './register-command.js';
import { addPlanShapeOptions } from '../plan-shape-options.js';
import type { PlanShapeFlags } from '../plan-inputs.js';
import { globalOptions, lockTimeoutArg, parseOutput, withSession } from '../session-options.js';
import type { OutputFormat } from '../reporters/reporter.js';
import type { IoHost } from '../io-host.js';

type ApplyOutput = Extract<OutputFormat, 'text' | 'jsonl' | 'github'>;
const APPLY_OUTPUT_FORMATS: readonly ApplyOutput[] = ['text', 'jsonl', 'github'];

interface ApplyFlags extends PlanShapeFlags {
  autoApprove?: boolean;
  plan?: string;
  parallelism?: string;
  notify?: boolean;
  lockTimeout?: number;
  output: ApplyOutput;
}

export const registerApply: RegisterCommand = (program, io, setExit) => {
  const applyCommand = program
    .command('apply')
    .description('make live resources match the manifests')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .option('--auto-approve', 'do not ask for confirmation (required without a terminal)')
    .option('--plan <file>', 'apply exactly a plan saved by `moor plan --out` (refused when state, manifests, a secret or a live resource changed since)')
    // MOOR_PARALLELISM is the config's to read (engine/config.ts), as moor.config.yaml's parallelism is: the flag is over both.
    .option('--parallelism <n>', 'requests in flight per service (default 10; env: MOOR_PARALLELISM); a change waiting on its operation holds none');
  addPlanShapeOptions(applyCommand, 'apply')
    .option('--notify', 'post a summary to the configured conversation')
    .option('--lock-timeout <seconds>', "wait this long for another run's state lock (default: fail at once)", lockTimeoutArg)
    .addOption(
      new Option('--output <format>', 'text, github (annotations and the job summary), or jsonl: one JSON event per line on stdout (needs --auto-approve)')
        .default('text')
        .argParser((v) => parseOutput(v, APPLY_OUTPUT_FORMATS)),
    )
    .action(async (paths: string[], flags: ApplyFlags, command: Command) => {
      setExit(await runApply(io, paths, flags, command));
    });
};

async function runApply(io: IoHost, paths: string[], flags: ApplyFlags, command: Command): Promise<number> {
  const { reporterFor } = await import('../reporters/reporter.js');
  const { reportingFailure } = await import('../reporters/reporting-failure.js');
  const { planInputs, refuseWithSavedPlan, savedPlanStack, withApplyConfirmations } = await import('../plan-inputs.js');
  const { readSavedPlan, checkSavedFolder } = await import('../../engine/plan/saved-plan.js');
  const { apply } = await import('../../engine/operations/apply-operation.js');
  const { eventsNotify } = await import('../../engine/operations/operation-host.js');
  // Imported here, not at the top: engine/config.js brings the YAML parser, which every start of moor would load.
  const { parseParallelism } = await import('../../engine/config.js');
  const terminal = Boolean(io.stdinIsTTY && io.stdout.isTTY);
  const reporter = await reporterFor(io, flags.output, { terminal, applying: true });
  // An event stream is for programs: it never prompts.
  const interactive = terminal && !reporter.forPrograms;
  // Arguments are checked before the session starts (and the local cloud says it is there); a
  // refusal still ends a jsonl stream with its failed summary (and annotates with github).
  const { parallelismFlag, saved, inputs } = await reportingFailure(reporter, 'apply', () => {
    if (!flags.autoApprove && !flags.plan && !interactive) {
      throw new UserError('apply needs --auto-approve when it is not run from a terminal (or apply a saved plan with --plan FILE)');
    }
    const parallelismFlag = flags.parallelism === undefined ? undefined : parseParallelism(flags.parallelism, '--parallelism');
    if (flags.plan) refuseWithSavedPlan(paths, flags);
    const saved = flags.plan ? { file: flags.plan, plan: readSavedPlan(resolve(io.cwd, flags.plan), flags.plan) } : undefined;
    if (saved) checkSavedFolder(saved.file, saved.plan, io.cwd);
    const g = globalOptions(command);
    const stack = saved ? savedPlanStack(saved.file, saved.plan.inputs.stack, g.stack) : g.stack?.name;
    return { parallelismFlag, saved, inputs: saved ? saved.plan.inputs : planInputs(paths, flags, stack) };
  });
  return reportingFailure(reporter, 'apply', () =>
    withSession(
      io,
      command,
      async (session, events) =>
        (
          await apply(
            session,
            {
              inputs: withApplyConfirmations(inputs, flags),
              saved,
              autoApprove: flags.autoApprove === true,
              lock: { timeoutMs: (flags.lockTimeout ?? 0) * 1000 },
              notify: flags.notify ? (await import('../notify-run.js')).notifierOf(io, session, inputs.paths) : undefined,
            },
            {
              cwd: io.cwd,
              env: io.env,
              notify: eventsNotify(events, reporter.events),
              confirm: () => io.confirm(),
              onSignals: (signals, listener) => io.onSignals(signals, listener),
            },
          )
        ).code,
      {
        // The session's own events (notices, retries) are shown at once; only a run's results (plan_ready, apply_*) make a reporter wait, and those come through the operation, which awaits them.
        events: (e) => void reporter.events(e),
        retryLines: reporter.retryLines,
        ...(parallelismFlag !== undefined ? { parallelism: parallelismFlag } : {}),
        ...(inputs.stack !== undefined ? { stack: { name: inputs.stack, source: 'saved-plan' } } : {}),
      },
    ),
  );
}

// moor apply: plan, confirm, then make live resources match, recording each change in state.
import { setMaxListeners } from 'node:events';
import { Option, type Command } from 'commander';
import { UserError } from '../../core/diagnostics.js';
import type { RegisterCommand } from './index.js';
import { collect, globalOptions, lockTimeoutArg, parseOutput, requireNotify, withSession } from '../session-options.js';
import type { ApplyOutput } from '../apply-report.js';
import type { IoHost } from '../io-host.js';

const APPLY_OUTPUT_FORMATS: readonly ApplyOutput[] = ['text', 'jsonl', 'github'];

interface ApplyFlags {
  autoApprove?: boolean;
  plan?: string;
  parallelism?: string;
  target?: string[];
  prune?: boolean;
  allowMassDelete?: boolean;
  allowUntracked?: boolean;
  allowDestructive?: string[];
  replace?: string[];
  refreshOnly?: boolean;
  notify?: boolean;
  lockTimeout?: number;
  output: ApplyOutput;
}

export const registerApply: RegisterCommand = (program, io, setExit) => {
  program
    .command('apply')
    .description('make live resources match the manifests')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .option('--auto-approve', 'do not ask for confirmation (required without a terminal)')
    .option('--plan <file>', 'apply exactly a plan saved by `moor plan --out` (refused when state, manifests, a secret or a live resource changed since)')
    .option('--parallelism <n>', 'requests in flight per service (default 10); a change waiting on its operation holds none')
    .option('--target <address>', 'apply only this address and what it depends on (repeatable)', collect)
    .option('--prune', 'delete what left the manifests (never a protected resource)')
    .option('--allow-mass-delete', 'let --prune delete when the manifests name fewer than half of what state has')
    .option('--allow-untracked', 'run jobs and create resources state has no record of although the manifests\' other resources exist live (state looks lost; moor import is the other way)')
    .option('--allow-destructive <address>', 'let this protected job run although its run is destructive (repeatable)', collect)
    .option('--replace <address>', 'replace (-/+) this resource even if it could be left alone or updated (repeatable)', collect)
    .option('--refresh-only', 'accept what drifted into state (last applied and outputs from live); change nothing live')
    .option('--notify', 'post a summary to the configured conversation')
    .option('--lock-timeout <seconds>', "wait this long for another run's state lock (default: fail at once)", lockTimeoutArg)
    .addOption(new Option('--output <format>', 'text, github (annotations and the job summary), or jsonl: one JSON event per line on stdout (needs --auto-approve)').default('text').argParser((v) => parseOutput(v, APPLY_OUTPUT_FORMATS)))
    .action(async (paths: string[], flags: ApplyFlags, command: Command) => {
      setExit(await runApply(io, paths, flags, command));
    });
};

function parallelismOf(flags: ApplyFlags, command: Command): number | undefined {
  if (flags.parallelism === undefined) return undefined;
  const n = Number(flags.parallelism);
  // Named as the user gave it: MOOR_PARALLELISM reaches the flag through bindEnvironment.
  const given = command.getOptionValueSource('parallelism') === 'env' ? 'MOOR_PARALLELISM' : '--parallelism';
  if (!Number.isInteger(n) || n < 1) throw new UserError(`${given} must be a positive integer, not '${flags.parallelism}'`);
  return n;
}

async function runApply(io: IoHost, paths: string[], flags: ApplyFlags, command: Command): Promise<number> {
  // An event stream is for programs: it never prompts.
  const interactive = Boolean(io.stdinIsTTY && io.stdout.isTTY) && flags.output !== 'jsonl';
  const { preparePlan, applyPrepared, refreshPrepared, kindContext } = await import('../../engine/workflow.js');
  const { checkSavedFolder, readSavedPlan } = await import('../../engine/plan/saved-plan.js');
  const { holdToSaved } = await import('../../engine/plan/hold-to-saved.js');
  const { planInputs, refuseWithSavedPlan, savedPlanStack, withApplyConfirmations } = await import('../plan-inputs.js');
  const { hasChanges } = await import('../../engine/plan/types.js');
  const { blockingErrors } = await import('../../engine/plan/unknown-outcome.js');
  const { applyReport } = await import('../apply-report.js');
  const { reportingFailure } = await import('../unplanned.js');
  const { cancelled } = await import('../confirm.js');
  // Arguments are checked before the session starts (and the local cloud says it is there); a
  // refusal still ends a jsonl stream with its failed summary (and annotates with github).
  const { parallelismFlag, saved, inputs } = await reportingFailure(io, flags.output, 'apply', async () => {
    if (!flags.autoApprove && !flags.plan && !interactive) {
      throw new UserError('apply needs --auto-approve when it is not run from a terminal (or apply a saved plan with --plan FILE)');
    }
    const parallelismFlag = parallelismOf(flags, command);
    if (flags.plan) refuseWithSavedPlan(paths, flags);
    const saved = flags.plan ? readSavedPlan(flags.plan) : undefined;
    if (saved) checkSavedFolder(flags.plan!, saved, io.cwd);
    const g = globalOptions(command);
    const stack = saved ? savedPlanStack(flags.plan!, saved.inputs.stack, g.stack, g.stackGiven) : g.stack;
    return { parallelismFlag, saved, inputs: saved ? saved.inputs : planInputs(paths, flags, stack) };
  });
  const report = applyReport(io, flags.output, interactive, inputs.stack);

  return reportingFailure(io, flags.output, 'apply', () => withSession(io, command, async (session) => {
    requireNotify(session, flags.notify);
    const parallelism = parallelismFlag ?? session.parallelism;
    const lock = await session.backend.lock('moor apply', (flags.lockTimeout ?? 0) * 1000);
    try {
      const planned = await preparePlan(session, { ...withApplyConfirmations(inputs, flags), cwd: io.cwd, env: io.env });
      const prepared = saved ? await holdToSaved(kindContext(session), flags.plan!, saved, planned) : planned;
      report.plan(prepared.plan, inputs.refreshOnly ? 'drift' : 'plan');
      // An unknown outcome is an error that blocks only its dependents: the rest is applied.
      if (blockingErrors(prepared.plan.diagnostics).length > 0) return 1;
      if (hasChanges(prepared.plan) && !flags.autoApprove && !saved) {
        const answer = await io.confirm();
        if (answer !== 'yes') {
          const { line, code } = cancelled(answer);
          io.stderr.write(line + '\n');
          return code;
        }
      }
      if (inputs.refreshOnly) {
        const outcomes = await refreshPrepared(session, { prepared, cwd: io.cwd, env: io.env, run: { command: 'apply --refresh-only', paths: inputs.paths } });
        report.refreshSummary(outcomes);
        if (flags.notify) await (await import('../notify-run.js')).notifyRun(io, session, 'apply', prepared.plan, outcomes, inputs.paths);
        return outcomes.some((o) => o.status !== 'done') ? 1 : 0;
      }
      const controller = new AbortController();
      // Every step waiting on its operation listens on this one signal (and stops listening when its
      // wait ends): hundreds at once is the design, not a leak, so Node's warning past 10 is noise.
      setMaxListeners(0, controller.signal);
      const onSignal = () => {
        if (controller.signal.aborted) return;
        io.stderr.write('\nInterrupted: finishing the changes in flight and recording them; no new change starts.\n');
        controller.abort();
      };
      // A closed terminal or session (SIGHUP) stops the run as SIGTERM does: in flight recorded, lock released.
      const stopListening = io.onSignals(['SIGINT', 'SIGTERM', 'SIGHUP'], onSignal);
      const progress = await report.progress(prepared.plan, () => session.scheduler.stats());
      try {
        const outcomes = await applyPrepared(session, {
          prepared, parallelism, signal: controller.signal, cwd: io.cwd, env: io.env, run: { command: saved ? 'apply --plan' : 'apply', paths: inputs.paths },
        });
        await progress.done();
        report.summary(outcomes);
        if (flags.notify) {
          const { notifyRun } = await import('../notify-run.js');
          await notifyRun(io, session, 'apply', prepared.plan, outcomes, inputs.paths);
        }
        return outcomes.some((o) => o.status !== 'done') ? 1 : 0;
      } finally {
        stopListening();
      }
    } finally {
      await session.backend.unlock(lock);
    }
  }, { events: report.events, retryLines: report.retryLines, stack: inputs.stack }));
}

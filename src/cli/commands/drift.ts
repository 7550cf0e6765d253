// moor drift: did live resources move away from the last apply? Exit 0 none, 2 drift, 1 error.
import { Option, type Command } from 'commander';
import type { RegisterCommand } from './index.js';
import { globalOptions, parseOutput, requireNotify, withSession } from '../session-options.js';
import type { Session } from '../../engine/session.js';
import type { Plan } from '../../engine/plan/types.js';
import type { JsonObject } from '../../core/json.js';
import { OUTPUT_FORMATS, printPlan, type OutputFormat } from '../plan-output.js';
import type { IoHost } from '../io-host.js';

interface DriftFlags {
  output: OutputFormat;
  notify?: boolean;
  allStacks?: boolean;
}

export const registerDrift: RegisterCommand = (program, io, setExit) => {
  program
    .command('drift')
    .description('report live resources that moved away from the last apply (exit 2 when any did)')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .addOption(new Option('--output <format>', 'text, json, markdown or github (annotations and the job summary)').default('text').argParser((v) => parseOutput(v, OUTPUT_FORMATS)))
    .option('--notify', 'post the drift report to the configured conversation')
    .option('--all-stacks', 'check every stack of moor.config.yaml and report each (exit code the worst)')
    .action(async (paths: string[], flags: DriftFlags, command: Command) => {
      setExit(await runDrift(io, paths, flags, command));
    });
};

async function runDrift(io: IoHost, paths: string[], flags: DriftFlags, command: Command): Promise<number> {
  const { reportingFailure } = await import('../unplanned.js');
  if (flags.allStacks) return driftAllStacks(io, paths, flags, command);
  return reportingFailure(io, flags.output, 'drift', () => withSession(io, command, async (session) => {
    return (await driftStack(io, session, paths, flags, (drift) => printPlan(io, drift, flags.output, 'drift', session.config.stack?.name))).code;
  }));
}

/** One stack's drift (or the manifests' without stacks): `show` prints it, then it is notified. Exit 0 none, 2 drift, 1 errors. */
async function driftStack(io: IoHost, session: Session, paths: string[], flags: DriftFlags, show: (drift: Plan) => void): Promise<{ drift: Plan; code: number }> {
  const { preparePlan, driftReport } = await import('../../engine/workflow.js');
  const { hasErrors } = await import('../../core/diagnostics.js');
  requireNotify(session, flags.notify);
  const prepared = await preparePlan(session, { paths, cwd: io.cwd, env: io.env });
  const drift = driftReport(prepared, session.backend.location);
  show(drift);
  if (flags.notify) {
    const { notifyRun } = await import('../notify-run.js');
    await notifyRun(io, session, 'drift', drift, undefined, paths);
  }
  return { drift, code: hasErrors(drift.diagnostics) ? 1 : drift.changes.length > 0 ? 2 : 0 };
}

/** drift --all-stacks: every stack in turn, one report, the worst exit code. */
async function driftAllStacks(io: IoHost, paths: string[], flags: DriftFlags, command: Command): Promise<number> {
  const { eachStack, namingStack, printStackRuns, stacksOf, worstExitCode } = await import('../all-stacks.js');
  const { formatDiagnostic, UserError } = await import('../../core/diagnostics.js');
  const { renderPlanJson } = await import('../../engine/render/index.js');
  const { loadConfig } = await import('../../engine/config.js');
  const g = globalOptions(command);
  if (g.stack !== undefined && !g.stackGiven?.startsWith('MOOR_STACK=')) throw new UserError('--all-stacks checks every stack: do not also give --stack');
  const stacks = stacksOf(loadConfig(g.config, io.cwd, io.env));
  const runs = await eachStack(stacks, (stack) => withSession(io, command, async (session) => {
    const { drift, code } = await driftStack(io, session, paths, flags, () => undefined);
    return { stack, plan: drift, document: JSON.parse(renderPlanJson(drift)) as JsonObject, code };
  }, { stack }));
  for (const r of runs) for (const d of r.plan.diagnostics) io.stderr.write(formatDiagnostic(namingStack(d, r.stack)) + '\n');
  printStackRuns(io, runs, flags.output, 'drift');
  return worstExitCode(runs.map((r) => r.code));
}

// moor drift: did live resources move away from the last apply? Exit 0 none, 2 drift, 1 error.
import { Option, type Command } from 'commander';
import type { RegisterCommand } from './index.js';
import { parseOutput, requireNotify, withSession } from '../session-options.js';
import { OUTPUT_FORMATS, printPlan, type OutputFormat } from '../plan-output.js';

interface DriftFlags {
  output: OutputFormat;
  notify?: boolean;
}

export const registerDrift: RegisterCommand = (program, setExit) => {
  program
    .command('drift')
    .description('report live resources that moved away from the last apply (exit 2 when any did)')
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .addOption(new Option('--output <format>', 'text, json, markdown or github (annotations and the job summary)').default('text').argParser((v) => parseOutput(v, OUTPUT_FORMATS)))
    .option('--notify', 'post the drift report to the configured conversation')
    .action(async (paths: string[], flags: DriftFlags, command: Command) => {
      setExit(await runDrift(paths, flags, command));
    });
};

async function runDrift(paths: string[], flags: DriftFlags, command: Command): Promise<number> {
  const { preparePlan, driftReport } = await import('../../engine/workflow.js');
  const { hasErrors } = await import('../../core/diagnostics.js');
  const { reportingFailure } = await import('../unplanned.js');
  return reportingFailure(flags.output, 'drift', () => withSession(command, async (session) => {
    requireNotify(session, flags.notify);
    const prepared = await preparePlan(session, { paths, cwd: process.cwd(), env: process.env });
    const drift = driftReport(prepared, session.backend.location);
    printPlan(drift, flags.output, 'drift');
    if (flags.notify) {
      const { notifyRun } = await import('../notify-run.js');
      await notifyRun(session, 'drift', drift, undefined, paths);
    }
    if (hasErrors(drift.diagnostics)) return 1;
    return drift.changes.length > 0 ? 2 : 0;
  }));
}

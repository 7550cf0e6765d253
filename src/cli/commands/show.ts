// moor show FILE: renders a saved plan (what apply --plan would do) as text, JSON or markdown.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { RegisterCommand } from './register-command.js';
import { parseOutput } from '../session-options.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../plan-output.js';
import type { IoHost } from '../io-host.js';

interface ShowFlags {
  output: OutputFormat;
}

export const registerShow: RegisterCommand = (program, io, setExit) => {
  program
    .command('show')
    .description('render a plan saved by `moor plan --out` (secrets stay masked)')
    .argument('<file>', 'the saved plan')
    .addOption(
      new Option('--output <format>', 'text, json, markdown or github (annotations and the job summary)')
        .default('text')
        .argParser((v) => parseOutput(v, OUTPUT_FORMATS)),
    )
    .action(async (file: string, flags: ShowFlags, _command: Command) => {
      setExit(await runShow(io, file, flags));
    });
};

async function runShow(io: IoHost, file: string, flags: ShowFlags): Promise<number> {
  const { readPlanDocument } = await import('../../engine/plan/saved-plan.js');
  const { maskHashes, planOfDocument } = await import('../../engine/plan/plan-document.js');
  const { isObject } = await import('../../core/json.js');
  const { reporterFor } = await import('../reporters/reporter.js');
  const doc = readPlanDocument(resolve(io.cwd, file), file);
  const inputs = isObject(doc.inputs) ? doc.inputs : {};
  const reporter = await reporterFor(io, flags.output, { terminal: false, applying: false });
  await reporter.events({
    type: 'plan_ready',
    mode: inputs.refreshOnly === true ? 'drift' : 'plan',
    plan: planOfDocument(doc),
    // The document as saved, its secrets' hashes masked (what `--output json` of plan printed).
    ...(reporter.wantsDocument ? { document: maskHashes(doc) as typeof doc } : {}),
    ...(typeof inputs.stack === 'string' ? { stack: inputs.stack } : {}),
  });
  return 0;
}

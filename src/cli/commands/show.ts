// moor show FILE: renders a saved plan (what apply --plan would do) as text, JSON or markdown.
import { Option, type Command } from 'commander';
import type { RegisterCommand } from './index.js';
import { parseOutput } from '../session-options.js';
import { OUTPUT_FORMATS, printPlan, printPlanDocument, type OutputFormat } from '../plan-output.js';
import type { IoHost } from '../io-host.js';

interface ShowFlags {
  output: OutputFormat;
}

export const registerShow: RegisterCommand = (program, io, setExit) => {
  program
    .command('show')
    .description('render a plan saved by `moor plan --out` (secrets stay masked)')
    .argument('<file>', 'the saved plan')
    .addOption(new Option('--output <format>', 'text, json or markdown').default('text').argParser((v) => parseOutput(v, OUTPUT_FORMATS)))
    .action(async (file: string, flags: ShowFlags, _command: Command) => {
      setExit(await runShow(io, file, flags));
    });
};

async function runShow(io: IoHost, file: string, flags: ShowFlags): Promise<number> {
  const { readPlanDocument } = await import('../../engine/plan/saved-plan.js');
  const { maskHashes, planOfDocument } = await import('../../engine/plan/plan-document.js');
  const { isObject } = await import('../../core/json.js');
  const doc = readPlanDocument(file);
  const plan = planOfDocument(doc);
  if (flags.output === 'json') {
    printPlanDocument(io, maskHashes(doc) as typeof doc, plan);
    return 0;
  }
  const refreshOnly = isObject(doc.inputs) && doc.inputs.refreshOnly === true;
  const stack = isObject(doc.inputs) && typeof doc.inputs.stack === 'string' ? doc.inputs.stack : undefined;
  printPlan(io, plan, flags.output, refreshOnly ? 'drift' : 'plan', stack);
  return 0;
}

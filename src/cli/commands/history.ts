// moor history [ADDR]: the applies recorded in state, newest first (who, when, commit, what changed).
import { Option, type Command } from 'commander';
import { parseOutput } from '../session-options.js';
import type { RegisterCommand } from './index.js';
import { withBackend } from './state.js';

const HISTORY_FORMATS = ['text', 'json'] as const;
type HistoryFormat = (typeof HISTORY_FORMATS)[number];

export const registerHistory: RegisterCommand = (program, io, setExit) => {
  program.command('history')
    .description('the applies recorded in state, newest first: when, who, the git commit, what changed and how it ended')
    .argument('[address]', 'only the runs that changed this address, e.g. ContainerGroup/web')
    .addOption(new Option('--output <format>', 'text or json').default('text').argParser((v) => parseOutput(v, HISTORY_FORMATS)))
    .action(async (address: string | undefined, flags: { output: HistoryFormat }, command: Command) => {
      const { listedRuns } = await import('../../engine/history/history-store.js');
      const { historyJson, historyText } = await import('../history-view.js');
      setExit(await withBackend(io, command, async (backend) => {
        const runs = listedRuns((await backend.readHistory?.()) ?? [], address);
        io.stdout.write(flags.output === 'json' ? historyJson(runs) : historyText(runs, address));
        return 0;
      }));
    });
};

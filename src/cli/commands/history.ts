// moor history [ADDR]: the applies recorded in state, newest first (who, when, commit, what changed).
// Without --stack on a config with stacks: every stack's, merged newest first, each naming its stack.
import { Option, type Command } from 'commander';
import { globalOptions, parseOutput } from '../session-options.js';
import type { RegisterCommand } from './register-command.js';
import { withBackend } from './state.js';
import type { IoHost } from '../io-host.js';
import type { HistoryRun } from '../../engine/history/history-run.js';

const HISTORY_FORMATS = ['text', 'json'] as const;
type HistoryFormat = (typeof HISTORY_FORMATS)[number];

export const registerHistory: RegisterCommand = (program, io, setExit) => {
  program
    .command('history')
    .description("the applies recorded in state, newest first: when, who, the git commit, what changed and how it ended (without --stack: every stack's)")
    .argument('[address]', 'only the runs that changed this address, e.g. ContainerGroup/web')
    .addOption(new Option('--output <format>', 'text or json').default('text').argParser((v) => parseOutput(v, HISTORY_FORMATS)))
    .action(async (address: string | undefined, flags: { output: HistoryFormat }, command: Command) => {
      const { historyJson, historyText } = await import('../history-view.js');
      const print = (runs: readonly HistoryRun[]): number => {
        io.stdout.write(flags.output === 'json' ? historyJson(runs) : historyText(runs, address));
        return 0;
      };
      const every = await everyStacksRuns(io, command, address);
      if (every) {
        setExit(print(every));
        return;
      }
      const { historyLimit, listedRuns } = await import('../../engine/history/history-store.js');
      const { loadConfig } = await import('../../engine/config.js');
      const g = globalOptions(command);
      // As much as the config keeps (history.keep, history.maxBytes), read from the newest end.
      const limit = historyLimit(loadConfig(g.config, io.cwd, io.env, g.stack).history);
      setExit(await withBackend(io, command, async (backend) => print(listedRuns((await backend.readHistory?.(limit)) ?? [], address))));
    });
};

/**
 * With stacks and none chosen, the runs of every stack's state, newest first (`kubectl get -A`
 * rather than a refusal: a history is read-only); undefined when a stack is chosen or there are none.
 */
async function everyStacksRuns(io: IoHost, command: Command, address: string | undefined): Promise<HistoryRun[] | undefined> {
  const { loadConfig } = await import('../../engine/config.js');
  const { openStackState } = await import('../../engine/state/stack-state.js');
  const { historyLimit, listedRuns } = await import('../../engine/history/history-store.js');
  const { noticeSink } = await import('../../core/events.js');
  const g = globalOptions(command);
  const config = loadConfig(g.config, io.cwd, io.env, g.stack);
  if (config.stacks === undefined || config.stack !== undefined) return undefined;
  const runs: HistoryRun[] = [];
  for (const stack of config.stacks) {
    const stackConfig = loadConfig(g.config, io.cwd, io.env, { name: stack, source: 'flag' });
    const backend = openStackState(
      g.state,
      stackConfig,
      io.cwd,
      noticeSink((line) => io.stderr.write(line + '\n')),
      io.masker,
    );
    try {
      runs.push(
        ...listedRuns((await backend.readHistory?.(historyLimit(stackConfig.history))) ?? [], address).map((r) =>
          r.stack === undefined ? { ...r, stack } : r,
        ),
      );
    } finally {
      await backend.close();
    }
  }
  return runs.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
}

// moor notify test: sends a test message to the configured conversation and prints its activity id.
import type { Command } from 'commander';
import type { RegisterCommand } from './register-command.js';
import { globalOptions } from '../session-options.js';
import type { IoHost } from '../io-host.js';

export const registerNotify: RegisterCommand = (program, io, setExit) => {
  const notify = program.command('notify').description('notifications through the conversation connector (notify: in moor.config.yaml)');
  notify
    .command('test')
    .description('send a test message to the configured conversation and print its activity id')
    .action(async (_flags: unknown, command: Command) => {
      setExit(await runNotifyTest(io, command));
    });
};

async function runNotifyTest(io: IoHost, command: Command): Promise<number> {
  const { loadConfig } = await import('../../engine/config.js');
  const { notifyConnector, requireNotify } = await import('../../notify/notify-connector.js');
  const { sendTestMessage } = await import('../../notify/test-message.js');
  const { notifyFailure } = await import('../../notify/notify-error.js');
  // No session: a test message needs neither state nor the other services.
  const g = globalOptions(command);
  const config = loadConfig(g.config, io.cwd, io.env, g.stack);
  const target = requireNotify(config);
  const id = await sendTestMessage(notifyConnector(config, io.env, io.masker), target, new Date()).catch((err: unknown) => {
    throw notifyFailure(err, `sending a test message to conversation ${target.conversationId}`);
  });
  io.stderr.write(`moor: sent a test message to conversation ${target.conversationId}\n`);
  io.stdout.write(id + '\n');
  return 0;
}

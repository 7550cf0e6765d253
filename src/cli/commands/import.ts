// moor import ADDR ID: adopt an existing resource into state, so the next plan compares against it.
import type { Command } from 'commander';
import type { RegisterCommand } from './register-command.js';
import { withSession } from '../session-options.js';
import type { IoHost } from '../io-host.js';

export const registerImport: RegisterCommand = (program, io, setExit) => {
  program
    .command('import')
    .description('adopt an existing resource into state under a manifest address')
    .argument('<address>', 'the manifest address, e.g. ContainerGroup/web')
    .argument('<id>', "the service's identifier (ARM id, dataset id, auth context id)")
    .argument('[paths...]', 'manifest files or folders (default: .)')
    .action(async (address: string, id: string, paths: string[], _flags: unknown, command: Command) => {
      setExit(await runImport(io, address, id, paths, command));
    });
};

async function runImport(io: IoHost, address: string, id: string, paths: string[], command: Command): Promise<number> {
  const { importResource } = await import('../../engine/import/import-resource.js');
  return withSession(io, command, async (session) => {
    const recorded = await importResource(session, { address, id, paths, cwd: io.cwd, env: io.env });
    io.stdout.write(`Imported ${address} (${recorded}). Run 'moor plan' to see how it differs from the manifest.\n`);
    return 0;
  });
}

// moor outputs ADDR [POINTER]: a resource's outputs from state, what `${ref:ADDR#/pointer}` reads.
import { Option, type Command } from 'commander';
import { UserError } from '../../core/diagnostics.js';
import type { ResourceRecord } from '../../engine/state/types.js';
import { parseOutput } from '../session-options.js';
import type { RegisterCommand } from './register-command.js';
import { withBackend } from './state.js';

const OUTPUTS_FORMATS = ['text', 'json'] as const;
type OutputsFormat = (typeof OUTPUTS_FORMATS)[number];

export const registerOutputs: RegisterCommand = (program, io, setExit) => {
  program
    .command('outputs')
    .description("a resource's outputs from state (what ${ref:ADDR#/pointer} reads); with a pointer, one value raw")
    .argument('<address>', 'e.g. ContainerGroup/web (or ContainerGroup/web#/ipAddress)')
    .argument('[pointer]', 'JSON pointer into the outputs, e.g. /ipAddress: prints that value alone')
    .addOption(new Option('--output <format>', 'text or json').default('text').argParser((v) => parseOutput(v, OUTPUTS_FORMATS)))
    .action(async (address: string, pointer: string | undefined, flags: { output: OutputsFormat }, command: Command) => {
      const { printOutputs, splitTarget } = await import('../outputs-view.js');
      const target = splitTarget(address, pointer);
      setExit(
        await withBackend(io, command, async (backend) => {
          const record = (await backend.read()).resources[target.address] as ResourceRecord | undefined;
          if (!record) throw new UserError(`${target.address} is not in state (${backend.location}); 'moor state list' shows what it holds`);
          return printOutputs(io, target, record.outputs, flags.output);
        }),
      );
    });
};

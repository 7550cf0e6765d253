// moor completion bash|zsh: prints a shell completion script for moor's commands and options.
import { Argument } from 'commander';
import type { RegisterCommand } from './register-command.js';

export const registerCompletion: RegisterCommand = (program, io, setExit) => {
  program
    .command('completion')
    .description('print a shell completion script (bash or zsh)')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh']))
    .action(async (shell: 'bash' | 'zsh') => {
      const { bashCompletion, zshCompletion } = await import('../completion.js');
      io.stdout.write(shell === 'bash' ? bashCompletion(program) : zshCompletion(program));
      setExit(0);
    });
};

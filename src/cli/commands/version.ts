// moor version: the versions of moor, Node.js and the state format (as --version prints them).
import type { RegisterCommand } from './register-command.js';
import { versionText } from '../version.js';

export const registerVersion: RegisterCommand = (program, io, setExit) => {
  program
    .command('version')
    .description('print the versions of moor, Node.js and the state format')
    .action(() => {
      io.stdout.write(versionText() + '\n');
      setExit(0);
    });
};

// Every command of the CLI, one file each. A command registers itself on the program and
// reports its exit code through `setExit`; heavy modules are imported inside the action.
import type { Command } from 'commander';

export type SetExit = (code: number) => void;
export type RegisterCommand = (program: Command, setExit: SetExit) => void;

export const COMMANDS: RegisterCommand[] = [];

// What a command file exports: a function that adds the command to the program. The commands and
// the list of them (index.ts) both import it from here.
import type { Command } from 'commander';
import type { IoHost } from '../io-host.js';

export type SetExit = (code: number) => void;
/** Adds a command to the program; its action reads and writes only through `io`. */
export type RegisterCommand = (program: Command, io: IoHost, setExit: SetExit) => void;

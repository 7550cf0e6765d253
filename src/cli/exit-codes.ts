// The Exit codes section of a command's help, for the commands whose codes a script reads: what
// each code means for that command (the guides say the same, docs/cli.md for every command).
import type { Command } from 'commander';

type ExitCodes = readonly (readonly [code: number, meaning: string])[];

const EXIT_CODES: Readonly<Partial<Record<string, ExitCodes>>> = {
  '': [
    [0, 'success (with --detailed-exitcode: no changes)'],
    [1, 'an error: bad input, a failed request, a held lock, a failed check, a job of unknown outcome'],
    [2, 'changes present (plan --detailed-exitcode) or drift found (drift)'],
    [130, 'the confirmation prompt was answered with Ctrl-C (Ctrl-D: 1)'],
  ],
  validate: [
    [0, 'no errors (warnings allowed)'],
    [1, 'errors'],
  ],
  plan: [
    [0, 'planned (with --detailed-exitcode: no changes)'],
    [1, 'an error, a failed check, a change a policy refuses or a job of unknown outcome'],
    [2, 'with --detailed-exitcode: changes present'],
  ],
  apply: [
    [0, 'applied (or nothing to do)'],
    [1, 'an error, or a change failed, was refused or interrupted; or the confirmation was declined'],
    [130, 'the confirmation prompt was answered with Ctrl-C (nothing was changed)'],
  ],
  drift: [
    [0, 'no drift'],
    [1, 'an error (also: state holds no resources while there are manifests)'],
    [2, 'drift found'],
  ],
  graph: [
    [0, 'the graph of valid manifests'],
    [1, 'the manifests have errors (the graph is printed as far as it goes)'],
  ],
  'policy test': [
    [0, 'every case turned out as it expects'],
    [1, 'a case did not, or could not be evaluated, or a Policy is invalid'],
  ],
  'get name-availability': [
    [0, 'the answer, whether or not the name is free'],
    [1, 'an error'],
  ],
};

/** Adds an Exit codes section after the help of the program and of each command that has one (before its examples). */
export function addExitCodes(program: Command): void {
  const add = (command: Command, key: string) => {
    const codes = EXIT_CODES[key];
    if (codes) command.addHelpText('after', '\nExit codes:\n' + codes.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`).join('\n'));
  };
  add(program, '');
  for (const command of program.commands) {
    add(command, command.name());
    for (const sub of command.commands) add(sub, `${command.name()} ${sub.name()}`);
  }
}

/** The exit codes of a command by its path under the program (`plan`, `policy test`; `''`: the program's). */
export function exitCodesOf(path: string): ExitCodes {
  return EXIT_CODES[path] ?? [];
}

// Runs a command on a pseudo-terminal (40 rows, 160 columns: at 0x0 listr2 wraps every character),
// waits for `prompt` to appear, then types `answer` (Ctrl-C is \x03, Ctrl-D \x04). Resolves with
// everything the terminal showed and the command's exit code. node-pty's prebuilt binaries come
// from npm, so a machine with only Node runs these tests too.
import pty from '@lydell/node-pty';

export interface TerminalRun {
  readonly code: number;
  readonly out: string;
}

export function runOnTerminal(
  prompt: string,
  answer: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<TerminalRun> {
  return new Promise((done) => {
    const term = pty.spawn(command, [...args], { cols: 160, rows: 40, cwd: options.cwd, env: options.env });
    let out = '';
    let sent = false;
    // A guard like a timeout of the test: a command that never prompts still ends.
    const guard = setTimeout(() => term.kill(), 50_000);
    term.onData((chunk) => {
      out += chunk;
      if (sent || !out.includes(prompt)) return;
      sent = true;
      setTimeout(() => term.write(answer), 200);
    });
    term.onExit(({ exitCode }) => {
      clearTimeout(guard);
      done({ code: exitCode, out });
    });
  });
}

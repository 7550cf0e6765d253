// The io host of the `moor` process: the one module of the CLI that touches the process's globals.
import { quietOnClosedPipe } from './closed-pipe.js';
import { confirmApply } from './confirm.js';
import type { IoHost, StopSignal } from './io-host.js';

/** The process's streams, environment, folder, terminal and signals as an io host. */
export function processIo(): IoHost {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stdinIsTTY: (process.stdin.isTTY as boolean | undefined) === true, // undefined, not false, for a pipe or a file
    confirm: () => confirmApply(process.stdin, process.stderr),
    onSignals: (signals: readonly StopSignal[], listener: (signal: StopSignal) => void) => {
      const handlers = signals.map((s) => [s, () => listener(s)] as const);
      for (const [s, h] of handlers) process.on(s, h);
      return () => {
        for (const [s, h] of handlers) process.off(s, h);
      };
    },
  };
}

// The io host of the `moor` process: the one module of the CLI that touches the process's globals.
import { isatty } from 'node:tty';
import { quietOnClosedPipe } from './closed-pipe.js';
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
    // Asked of the descriptor: process.stdin would open a stream (and load its modules) that only apply's prompt reads.
    stdinIsTTY: isatty(0),
    confirm: async () => (await import('./confirm.js')).confirmApply(process.stdin, process.stderr),
    onSignals: (signals: readonly StopSignal[], listener: (signal: StopSignal) => void) => {
      const handlers = signals.map((s) => [s, () => listener(s)] as const);
      for (const [s, h] of handlers) process.on(s, h);
      return () => {
        for (const [s, h] of handlers) process.off(s, h);
      };
    },
  };
}

// An io host in memory: what a run of `main(argv, io)` writes, kept as text; no terminal, no signals
// unless the test sends them.
import type { Confirmation } from '../../src/cli/confirm.js';
import type { IoHost, OutputStream, StopSignal } from '../../src/cli/io-host.js';

export interface MemoryIo extends IoHost {
  /** Everything written to stdout so far. */
  readonly out: () => string;
  /** Everything written to stderr so far. */
  readonly err: () => string;
  /** Sends a stop signal to the run's listeners, as a terminal's Ctrl-C or a kill would. */
  readonly signal: (signal: StopSignal) => void;
}

export interface MemoryIoOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Pretend stdin and stdout are a terminal. */
  readonly tty?: boolean;
  /** The answer to apply's confirmation. */
  readonly answer?: Confirmation;
  /** The run's clock (a test clock's `now`); the system's when absent. */
  readonly now?: () => Date;
}

function memoryStream(tty: boolean): OutputStream & { text: string } {
  const stream = {
    text: '',
    isTTY: tty,
    columns: tty ? 100 : undefined,
    write(chunk: string | Uint8Array): boolean {
      stream.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    },
  };
  return stream;
}

export function memoryIo(options: MemoryIoOptions = {}): MemoryIo {
  const stdout = memoryStream(options.tty ?? false);
  const stderr = memoryStream(options.tty ?? false);
  const listeners = new Set<{ signals: readonly StopSignal[]; listener: (s: StopSignal) => void }>();
  return {
    stdout,
    stderr,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    stdinIsTTY: options.tty ?? false,
    confirm: async () => options.answer ?? 'closed',
    ...(options.now ? { now: options.now } : {}),
    onSignals: (signals, listener) => {
      const entry = { signals, listener };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    out: () => stdout.text,
    err: () => stderr.text,
    signal: (s) => {
      for (const l of [...listeners]) if (l.signals.includes(s)) l.listener(s);
    },
  };
}

/** The first match of `pattern` in what the run writes to `stream` (its captured text so far and after). */
export function written(io: MemoryIo, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpExecArray> {
  const target = io[stream];
  const text = stream === 'stdout' ? io.out : io.err;
  return new Promise((resolve) => {
    const already = pattern.exec(text());
    if (already) {
      resolve(already);
      return;
    }
    const write = target.write.bind(target);
    target.write = (chunk) => {
      const wrote = write(chunk);
      const m = pattern.exec(text());
      if (m) resolve(m);
      return wrote;
    };
  });
}

// What one CLI run reads and writes: its output streams, environment, folder, terminal and signals.
// `main` takes it as a value, so the CLI can run twice in one process (tests, an embedding
// program) and only the bin's host (process-io.ts) touches the process.
import type { Masker, OutputStream } from '../core/masker.js';
import type { Confirmation, StopSignal } from '../engine/operations/operation-host.js';

export type { OutputStream, StopSignal };

export interface IoHost {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** The run's environment (MOOR_*, NO_COLOR, CI's variables); read, never changed. */
  readonly env: Readonly<NodeJS.ProcessEnv>;
  /** The folder relative paths are read from. */
  readonly cwd: string;
  /** Whether a person answers at the input (apply asks for confirmation only then). */
  readonly stdinIsTTY: boolean;
  /** Asks whether to apply (only when stdinIsTTY). */
  confirm(): Promise<Confirmation>;
  /**
   * The run's masker, set by main for each run: the secrets found during it (its session's too) are
   * registered there and its output streams are masked with it. Two runs never share one.
   */
  readonly masker?: Masker;
  /**
   * The run's clock; the system's when absent. A program that embeds the CLI, or a test that moves time
   * instead of waiting it, gives its own: the local cloud it serves reads provisioning, operation phases
   * and token expiry from it, and the run judges its tokens' expiry by it (credentials' tokenCommand).
   */
  readonly now?: () => Date;
  /** Calls `listener` on each of `signals` until the returned function is called. */
  onSignals(signals: readonly StopSignal[], listener: (signal: StopSignal) => void): () => void;
}

/** Writes whole lines to the run's stdout (annotations, jsonl events add their own newline or not). */
export function stdoutLine(io: IoHost): (line: string) => void {
  return (line) => {
    io.stdout.write(line + '\n');
  };
}

/** Writes text to the run's stdout as it is (a jsonl event carries its newline). */
export function stdoutText(io: IoHost): (text: string) => void {
  return (text) => {
    io.stdout.write(text);
  };
}

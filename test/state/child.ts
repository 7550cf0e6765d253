// Test helper: a child process that speaks one JSON object per stdout line.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export class JsonChild {
  readonly proc: ChildProcess;
  private lines: string[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(script: string, args: readonly string[]) {
    this.proc = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const rl = createInterface({ input: this.proc.stdout! });
    rl.on('line', (l) => {
      this.lines.push(l);
      this.wake?.();
    });
    rl.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
  }

  /** The next line, parsed; throws if the child ended first. */
  async next(): Promise<Record<string, unknown>> {
    while (this.lines.length === 0) {
      if (this.ended) throw new Error('child ended without output');
      await new Promise<void>((r) => {
        this.wake = r;
      });
    }
    return JSON.parse(this.lines.shift()!) as Record<string, unknown>;
  }

  /** The next raw line, or undefined once the child ended. */
  async nextLine(): Promise<string | undefined> {
    while (this.lines.length === 0) {
      if (this.ended) return undefined;
      await new Promise<void>((r) => {
        this.wake = r;
      });
    }
    return this.lines.shift();
  }

  send(line: string): void {
    this.proc.stdin!.write(line + '\n');
  }

  exited(): Promise<number | null> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return Promise.resolve(this.proc.exitCode);
    return new Promise((r) => this.proc.once('exit', (code) => r(code)));
  }
}

/**
 * Children of one fixture that serve the tests of a file in turn, each started when a test first asks for it
 * (a process start costs more than most tests ask of a child). A test whose child crashes or is killed discards it.
 */
export class JsonChildren {
  private readonly running = new Map<number, JsonChild>();

  constructor(
    private readonly script: string,
    private readonly args: readonly string[],
  ) {}

  /** The i-th child, started now unless it runs. */
  get(i: number): JsonChild {
    let child = this.running.get(i);
    if (!child) {
      child = new JsonChild(this.script, this.args);
      this.running.set(i, child);
    }
    return child;
  }

  /** Forgets the i-th child (it crashed or was killed): the next get(i) starts another. */
  discard(i: number): void {
    this.running.delete(i);
  }

  /** Closes every child's stdin, which ends it, and waits until each has exited. */
  async close(): Promise<void> {
    const children = [...this.running.values()];
    this.running.clear();
    await Promise.all(
      children.map((c) => {
        c.proc.stdin!.end();
        return c.exited();
      }),
    );
  }
}

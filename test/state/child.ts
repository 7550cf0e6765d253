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

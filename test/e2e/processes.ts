// The built CLI and the local cloud in processes of their own, for tests where the process is the point:
// kill -9, signals, pipes, what Node reads when a process starts; everything else is in harness.ts, in the
// test's own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cliEnv, cloudArgs, CLOUD_ENV, LISTENING, ROOT, type Cloud, type CloudOptions, type RunResult } from './harness.js';

export const BIN = join(ROOT, 'bin/moor.js');

/** Starts `moor local-cloud --port 0` in a child process and waits for its `listening on URL` line. */
export async function startCloudProcess(options: CloudOptions = {}): Promise<Cloud & { readonly process: ChildProcess }> {
  if (options.clock) throw new Error('a cloud in its own process cannot read a test clock: use startCloud');
  const child = spawn(process.execPath, [BIN, ...cloudArgs(options)], {
    cwd: ROOT,
    env: { ...process.env, ...CLOUD_ENV, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((res, rej) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const m = LISTENING.exec(line);
      if (m) res(m[1]);
      else rej(new Error(`unexpected first line: ${line}`));
    });
    child.once('exit', (code) => rej(new Error(`local cloud exited with ${code}`)));
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((res) => {
        if (child.exitCode !== null) {
          res();
          return;
        }
        child.once('exit', () => res());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs the built CLI (bin/moor.js) in a child process in `cwd` against the cloud; resolves with exit code and output. */
export function moorProcess(
  cwd: string,
  cloud: Cloud | undefined,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<RunResult> & { child: ChildProcess } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: cliEnv(cloud, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<RunResult>((res) => child.on('close', (code, signal) => res({ code: code ?? (signal ? 137 : 1), stdout, stderr })));
  return Object.assign(done, { child });
}

// `moor watch` in a process of its own, for what only a process undergoes (kill -9, SIGSTOP, a replica's
// own pid).
import type { Cloud } from './harness.js';
import { moorProcess } from './processes.js';
import { endpoints, SERVING, waitFor, type WatchProcess } from './watch-harness.js';

/** Starts `moor watch ARGS --listen 127.0.0.1:0` in a child process and waits for the line naming its URL. */
export async function startWatchProcess(dir: string, cloud: Cloud, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<WatchProcess> {
  const run = moorProcess(dir, cloud, ['watch', ...args, '--listen', '127.0.0.1:0'], env);
  let err = '';
  run.child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const url = await waitFor(
    async () => SERVING.exec(err)?.[1],
    30_000,
    () => `watch did not serve: ${err}`,
  );
  return {
    url,
    pid: run.child.pid!,
    stderr: () => err,
    ...endpoints(url),
    terminate: async () => {
      const started = Date.now();
      run.child.kill('SIGTERM');
      const result = await run;
      return { code: result.code, ms: Date.now() - started };
    },
    kill: async () => {
      run.child.kill('SIGCONT');
      run.child.kill('SIGKILL');
      await run;
    },
    signal: (name) => {
      run.child.kill(name);
    },
  };
}

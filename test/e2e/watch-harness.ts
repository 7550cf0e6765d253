// End-to-end helpers of moor watch: a watch run in this process (a process of its own: watch-process.ts), its endpoints read over HTTP, /metrics parsed as Prometheus text.
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { cliEnv, ROOT, type Cloud } from './harness.js';

/** A running `moor watch`: its output, its endpoints over HTTP, and how to stop it. */
export interface WatchRun {
  readonly url: string;
  stderr(): string;
  get(path: string, token?: string): Promise<{ status: number; text: string }>;
  metrics(): Promise<ParsedFamily[]>;
  /** The value of a sample of a metric whose labels include `labels`, or undefined. */
  sample(name: string, labels: Record<string, string>): Promise<number | undefined>;
  status(): Promise<WatchStatus>;
  /** SIGTERM, then the exit code and how long it took to exit. */
  terminate(): Promise<{ code: number; ms: number }>;
}

/** A `moor watch` in a process of its own, for what only a process undergoes. */
export interface WatchProcess extends WatchRun {
  readonly pid: number;
  /** kill -9: no chance to finish, record or release anything. */
  kill(): Promise<void>;
  /** Sends a signal (SIGSTOP pauses the process, SIGCONT resumes it). */
  signal(name: NodeJS.Signals): void;
}

export interface WatchStatus {
  /** The stacks whose lease this replica holds. */
  holds: (string | null)[];
  /** Replicas on PostgreSQL: the replicas this one saw at its last look. */
  fleet?: { replicas: { id: string; live: boolean; self: boolean; heartbeatAt: string; holds: (string | null)[] }[]; stacks: number };
  stacks: {
    stack: string | null;
    standby: boolean;
    runs: number;
    consecutiveFailures: number;
    result: string | null;
    error: string | null;
    resources: { address: string; status: string }[];
  }[];
}

/** The address in the line `moor watch` prints once it serves. */
export const SERVING = /serving \S+ \S+ \S+ \S+ on (http:\/\/\S+)/;

/**
 * GET `url` through node:http, a connection each (no idle connection to reuse just as the server closes it): tests
 * poll watches every 200 ms, and fetch costs about twice the CPU of node:http per request.
 */
function getText(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The HTTP side of a watch serving at `url`. */
export function endpoints(url: string): Pick<WatchRun, 'get' | 'metrics' | 'sample' | 'status'> {
  const get = (path: string, token?: string) => getText(url + path, token ? { authorization: `Bearer ${token}` } : {});
  const metrics = async () => parsePrometheusTextFormat((await get('/metrics')).text);
  return {
    get,
    metrics,
    sample: async (name, labels) => {
      const family = (await metrics()).find((f) => f.name === name);
      const s = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
      return s?.value === undefined ? undefined : Number(s.value);
    },
    status: async () => JSON.parse((await get('/api/status')).text) as WatchStatus,
  };
}

/**
 * Runs `moor watch ARGS --listen 127.0.0.1:0` in this process (main(argv, io) of the built CLI, as
 * `moor()` runs other commands) and waits for the line naming its URL; terminate() sends the run SIGTERM.
 */
export async function startWatch(dir: string, cloud: Cloud, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<WatchRun> {
  const { main } = (await import(join(ROOT, 'dist/cli/main.js'))) as typeof import('../../src/cli/main.js');
  const { memoryIo, written } = await import('../support/memory-io.js');
  const io = memoryIo({ cwd: dir, env: cliEnv(cloud, env) });
  const serving = written(io, 'stderr', SERVING).then((m) => m[1]);
  const run = main(['node', 'moor', 'watch', ...args, '--listen', '127.0.0.1:0'], io);
  const exited = run.then((code) => {
    throw new Error(`watch exited with ${code}: ${io.err()}`);
  });
  const url = await Promise.race([serving, exited]);
  exited.catch(() => undefined); // a later exit is terminate()'s, awaited there
  return {
    url,
    stderr: () => io.err(),
    ...endpoints(url),
    terminate: async () => {
      const started = Date.now();
      io.signal('SIGTERM');
      const code = await run;
      return { code, ms: Date.now() - started };
    },
  };
}

/** Polls `probe` every `pollMs` until it returns something other than undefined/false. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, why: () => string, pollMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

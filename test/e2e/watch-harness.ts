// End-to-end helpers of moor watch: a watch process, its endpoints read over HTTP, /metrics parsed as Prometheus text.
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { moor, moorProcess, type Cloud } from './harness.js';

export interface WatchProcess {
  readonly url: string;
  readonly pid: number;
  stderr(): string;
  get(path: string, token?: string): Promise<{ status: number; text: string }>;
  metrics(): Promise<ParsedFamily[]>;
  /** The value of a sample of a metric whose labels include `labels`, or undefined. */
  sample(name: string, labels: Record<string, string>): Promise<number | undefined>;
  status(): Promise<WatchStatus>;
  /** SIGTERM, then the exit code and how long it took to exit. */
  terminate(): Promise<{ code: number; ms: number }>;
  /** kill -9: no chance to finish, record or release anything. */
  kill(): Promise<void>;
  /** Sends a signal (SIGSTOP pauses the process, SIGCONT resumes it). */
  signal(name: NodeJS.Signals): void;
}

export interface WatchStatus {
  /** The stacks whose lease this replica holds. */
  holds: Array<string | null>;
  stacks: Array<{ stack: string | null; standby: boolean; runs: number; consecutiveFailures: number; result: string | null; error: string | null; resources: Array<{ address: string; status: string }> }>;
}

/** Starts `moor watch ARGS --listen 127.0.0.1:0` and waits for the line naming its URL. */
export async function startWatch(dir: string, cloud: Cloud, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<WatchProcess> {
  const run = moorProcess(dir, cloud, ['watch', ...args, '--listen', '127.0.0.1:0'], env);
  let err = '';
  run.child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const url = await waitFor(async () => /serving \S+ \S+ \S+ \S+ on (http:\/\/\S+)/.exec(err)?.[1], 30_000, () => `watch did not serve: ${err}`);
  const get = async (path: string, token?: string) => {
    const res = await fetch(url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, text: await res.text() };
  };
  const metrics = async () => parsePrometheusTextFormat((await get('/metrics')).text);
  return {
    url,
    pid: run.child.pid!,
    stderr: () => err,
    get,
    metrics,
    sample: async (name, labels) => {
      const family = (await metrics()).find((f) => f.name === name);
      const s = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
      return s?.value === undefined ? undefined : Number(s.value);
    },
    status: async () => JSON.parse((await get('/api/status')).text) as WatchStatus,
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
    signal: (name) => { run.child.kill(name); },
  };
}

/** Polls `probe` until it returns something other than undefined/false. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, why: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((r) => setTimeout(r, 200));
  }
}

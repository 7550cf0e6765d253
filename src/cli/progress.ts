// Apply progress: listr2 on a terminal, plain timestamped lines in CI and pipes; both are sinks of the run's events.
import type { EventSink, StepOutcome } from '../core/events.js';
import { interruptedNote } from '../core/interrupted-note.js';
import { lineText } from '../core/foreign-text.js';
import type { PlannedChange } from '../engine/plan/types.js';
import type { RequestStats } from '../core/request-pacing.js';
import { waitLine, waitPhrase, type Wait } from './wait-line.js';
import type { IoHost } from './io-host.js';
import { useColor } from './session-options.js';

/** By an event's action (a string: the events know no plan); an action without a verb shows as it is. */
const VERB: Readonly<Partial<Record<string, readonly [string, string]>>> = {
  create: ['creating', 'created'],
  update: ['updating', 'updated'],
  replace: ['replacing', 'replaced'],
  delete: ['deleting', 'deleted'],
  run: ['running', 'ran'],
  // A no-op shows only when it waits for an earlier write the service still carries out (PlannedChange.inProgress).
  'no-op': ['waiting for the service to finish its earlier write', 'finished at the service'],
};

export interface Progress {
  /** Step events, retries and throttles (poll waits are routine: no line). */
  readonly sink: EventSink;
  /** Resolves once the display has drawn its last frame. */
  done(): Promise<void>;
}

/**
 * Plain lines: one when a step starts, one when it ends, with elapsed time; one per retry or throttle.
 * A line quotes a service's errors and progress messages: each stays one line (lineText).
 */
export function plainProgress(writeLine: (line: string) => void): Progress {
  const write = (line: string) => writeLine(lineText(line));
  const started = new Map<string, number>();
  const elapsed = (a: string) => `${((Date.now() - (started.get(a) ?? Date.now())) / 1000).toFixed(1)}s`;
  const finished = (o: StepOutcome) => {
    if (o.action === 'no-op' && !started.has(o.address)) return;
    if (o.status === 'done') write(`${o.address}: ${VERB[o.action]?.[1] ?? 'done'} after ${elapsed(o.address)}`);
    else if (o.status === 'failed') write(`${o.address}: failed after ${elapsed(o.address)}: ${o.error}`);
    else if (o.status === 'interrupted') write(`${o.address}: interrupted after ${elapsed(o.address)} ${interruptedNote(o)}`);
    else write(`${o.address}: ${skippedBecause(o)}`);
  };
  return {
    sink: (e) => {
      if (e.type === 'step_started') {
        started.set(e.address, Date.now());
        write(`${e.address}: ${VERB[e.action]?.[0] ?? e.action}...`);
      } else if (e.type === 'progress') write(`${e.address}: ${e.message}`);
      else if (e.type === 'step_finished') finished(e.outcome);
      else if (e.type === 'request_retried' || e.type === 'throttled') write(waitLine(e));
    },
    done: () => Promise.resolve(),
  };
}

/** Steps started and not yet finished, counted from the step events. */
interface Running {
  count: number;
}

/** The status line: requests in flight, steps waiting on the service, throttling, and the retry or throttle now waited out. */
export function statusLine(running: number, s: RequestStats, waiting?: string): string {
  const parts = [`${running} in flight (${s.inFlight} requests sent, ${s.queued} queued)`, `${Math.max(0, running - s.busySteps)} waiting on the service`];
  if (s.throttledMs > 0) parts.push(`throttled by the service for ${Math.ceil(s.throttledMs / 1000)} s more`);
  else if (s.throttled > 0) parts.push(`${s.throttled} throttled request(s) so far`);
  if (waiting) parts.push(waiting);
  return parts.join(' · ');
}

/** A step's line on the terminal: what it is doing, and the retry or throttle it waits out now (`ContainerGroup/web: creating (throttled by arm, retrying in 4 s)`). */
export function stepTitle(address: string, doing: string, waiting?: string): string {
  return lineText(waiting === undefined ? `${address}: ${doing}` : `${address}: ${doing} (${waiting})`);
}

/**
 * listr2 tasks, one per change, settled by the engine's events; with `stats`, a status line on top.
 * A retry or throttle of a step shows on its line while the wait lasts; one of no step, on the status line.
 */
export async function terminalProgress(io: IoHost, changes: readonly PlannedChange[], stats?: () => RequestStats): Promise<Progress> {
  const { DefaultRenderer, Listr, ListrLogger, ProcessOutput, LISTR_DEFAULT_RENDERER_STYLE } = await import('listr2');
  interface Settle {
    resolve: () => void;
    reject: (e: Error) => void;
    title: (t: string) => void;
  }
  const settles = new Map<string, Settle>();
  const ready = new Map<string, Promise<void>>();
  const shownChange = (c: PlannedChange) => c.action !== 'no-op' || c.inProgress !== undefined;
  const tasks = changes.filter(shownChange).map((c) => ({
    title: `${c.address}: waiting`,
    task: (_ctx: unknown, task: { title: string; skip: (m: string) => void }) =>
      new Promise<void>((resolve, reject) => {
        settles.set(c.address, {
          resolve,
          reject,
          title: (t) => {
            task.title = t;
          },
        });
      }).catch((e: unknown) => {
        if (e instanceof Error && e.name === 'Skip') task.skip(e.message);
        else throw e;
      }),
  }));
  const running: Running = { count: 0 };
  const shown = new Set(changes.filter(shownChange).map((c) => c.address));
  // Per step: what it is doing (its verb or its last progress line), and the wait it is in now.
  const doing = new Map<string, string>();
  const stepWaits = new Map<string, { phrase: string; timer: NodeJS.Timeout }>();
  // The latest retry or throttle of no step, shown on the status line while its wait lasts.
  let wait: { line: string; until: number } | undefined;
  const waiting = () => (wait && Date.now() < wait.until ? wait.line : undefined);
  let finishStatus = (): void => undefined;
  const statusTask = (stats: () => RequestStats) => ({
    title: 'starting',
    task: (_ctx: unknown, task: { title: string }) =>
      new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          task.title = statusLine(running.count, stats(), waiting());
        }, 250);
        finishStatus = () => {
          clearInterval(timer);
          task.title = statusLine(0, stats());
          resolve();
        };
      }),
  });
  const all = stats && tasks.length > 0 ? [statusTask(stats), ...tasks] : tasks;
  // Ctrl-C is apply's (finish what is in flight, record it, show the interrupted steps): listr2's own
  // SIGINT listener would fail every task and exit 127 at once.
  // listr2 draws on the run's terminal (its streams are the io host's: masked), in colour unless the run's environment says no.
  // The casts: listr2 types its streams as a process's, and uses only write, isTTY and columns of them.
  const output = new ProcessOutput(io.stdout as unknown as NodeJS.WriteStream, io.stderr as unknown as NodeJS.WriteStream);
  const plain = (text?: string) => text ?? '';
  const color = useColor(io.stdout, io.env)
    ? undefined
    : Object.fromEntries(Object.keys(LISTR_DEFAULT_RENDERER_STYLE.color ?? {}).map((level) => [level, plain]));
  const logger = new ListrLogger({ useIcons: true, toStderr: [], processOutput: output });
  // The caller decided the run's output is a terminal (listr2 would ask the process's stdout instead).
  const renderer = class extends DefaultRenderer {
    static override nonTTY = true;
  };
  const list = new Listr(all, {
    concurrent: true,
    exitOnError: false,
    registerSignalListeners: false,
    renderer,
    rendererOptions: { collapseErrors: false, logger, ...(color ? { color } : {}) },
  });
  const settled = list.run().catch(() => undefined);
  const whenReady = (a: string) => {
    let p = ready.get(a);
    if (!p) {
      p = new Promise<void>((res) => {
        const tick = () => (settles.has(a) ? res() : setTimeout(tick, 5));
        tick();
      });
      ready.set(a, p);
    }
    return p;
  };
  const skip = (s: Settle, message: string) => {
    const e = new Error(message);
    e.name = 'Skip';
    s.reject(e);
  };
  const retitle = (a: string) => void whenReady(a).then(() => settles.get(a)?.title(stepTitle(a, doing.get(a) ?? 'waiting', stepWaits.get(a)?.phrase)));
  const endWait = (a: string) => {
    clearTimeout(stepWaits.get(a)?.timer);
    stepWaits.delete(a);
  };
  const waitOnStep = (a: string, e: Wait) => {
    endWait(a);
    const timer = setTimeout(() => {
      stepWaits.delete(a);
      retitle(a);
    }, e.delayMs);
    timer.unref(); // a wait cut short (Ctrl-C) must not keep the process alive
    stepWaits.set(a, { phrase: waitPhrase(e), timer });
    retitle(a);
  };
  const finished = (o: StepOutcome) => {
    if (!shown.has(o.address)) return;
    endWait(o.address);
    if (o.status !== 'skipped') running.count = Math.max(0, running.count - 1); // a skipped step never started
    void whenReady(o.address).then(() => {
      const s = settles.get(o.address);
      if (!s) return; // never: whenReady waits for it
      if (o.status === 'done') {
        s.title(lineText(`${o.address}: ${VERB[o.action]?.[1] ?? 'done'}`));
        s.resolve();
      } else if (o.status === 'failed') s.reject(new Error(lineText(`${o.address}: ${o.error}`)));
      else if (o.status === 'interrupted') skip(s, lineText(`${o.address}: interrupted ${interruptedNote(o)}`));
      else skip(s, lineText(`${o.address}: ${skippedBecause(o)}`));
    });
  };
  return {
    sink: (e) => {
      if (e.type === 'step_started') {
        running.count++;
        doing.set(e.address, VERB[e.action]?.[0] ?? e.action);
        retitle(e.address);
      } else if (e.type === 'progress') {
        doing.set(e.address, e.message);
        retitle(e.address);
      } else if (e.type === 'step_finished') finished(e.outcome);
      else if (e.type === 'request_retried' || e.type === 'throttled') {
        if (e.address !== undefined && shown.has(e.address)) waitOnStep(e.address, e);
        else wait = { line: lineText(waitLine(e)), until: Date.now() + e.delayMs };
      }
    },
    done: async () => {
      finishStatus();
      await settled;
    },
  };
}

/**
 * Why a step was skipped. Its root cause may have failed, been refused, or have an unknown
 * outcome: 'did not succeed' does not claim it failed (which could lead to running it again).
 */
export function skippedBecause(o: StepOutcome): string {
  return o.rootCause === 'interrupted' ? 'skipped (interrupted)' : `skipped (${o.rootCause} did not succeed)`;
}

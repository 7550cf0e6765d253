// moor as a library: plan a folder of manifests, read the typed changes, apply them — the engine's
// own operations (as `moor plan` and `moor apply` run them), with every message of the run going
// to one host callback (time, level, code, data), as the CDK toolkit's IoHost. docs/library.md shows it.
import { resolve } from 'node:path';
import type { StepOutcome } from './core/events.js';
import type { Plan, PlannedChange } from './engine/plan/types.js';
import type { PlanShape } from './engine/plan/plan-shape.js';
import type { Session } from './engine/session.js';
import { ioMessage, type IoMessage } from './engine/operations/io-message.js';
import type { OperationHost } from './engine/operations/operation-host.js';

export { UserError, type Diagnostic, type SourceLocation } from './core/diagnostics.js';
export { StateLockedError, isStateLocked } from './engine/state/state-locked-error.js';
export type { IoLevel, IoMessage } from './engine/operations/io-message.js';
export type { RunEvent } from './engine/operations/run-events.js';
export type { StepOutcome, StepStatus } from './core/events.js';
export type { Action, FieldChange, Plan, PlannedChange, PlanSummary } from './engine/plan/types.js';
export type { PlanShape } from './engine/plan/plan-shape.js';

/**
 * Where and how a run works; everything but `notify` as the `moor` command's options and environment.
 * The folder and the environment are given, never read from the process: two runs in one program may differ.
 */
export interface MoorOptions {
  /** The folder manifest paths, moor.config.yaml, state and the local cloud's data are relative to (a program passes its own working directory). */
  readonly cwd: string;
  /** The run's environment: MOOR_* settings, the tokens credentials name (a program passes its own). */
  readonly env: NodeJS.ProcessEnv;
  /** The stack of moor.config.yaml to work on (as --stack). */
  readonly stack?: string;
  /** The config file (as --config; default: moor.config.yaml when present). */
  readonly config?: string;
  /** The state location (as --state). */
  readonly state?: string;
  /** Waits this long for another run's state lock (default: fails at once with a StateLockedError). */
  readonly lockTimeoutMs?: number;
  /** Every message of the run: notices, progress, the transport's waits, the results, and `run_failed`. */
  readonly notify?: (message: IoMessage) => void | Promise<void>;
}

export interface PlanReport {
  readonly plan: Plan;
  /** The plan's changes, no-ops included (`action: 'no-op'`). */
  readonly changes: readonly PlannedChange[];
  /** As `moor plan --detailed-exitcode`: 0 nothing to do, 2 changes, 1 errors in the plan. */
  readonly code: number;
}

export interface ApplyReport {
  readonly plan: Plan;
  /** How each step ended; empty when there was nothing to apply or the plan had errors. */
  readonly outcomes: readonly StepOutcome[];
  /** As `moor apply`: 0, or 1 for errors in the plan or a step that did not succeed. */
  readonly code: number;
}

/** Plans the manifests under `paths` (files or folders; a stack's own paths when it names some). */
export async function planFolder(paths: string | readonly string[], options: MoorOptions & Partial<PlanShape>): Promise<PlanReport> {
  const { plan } = await import('./engine/operations/plan-operation.js');
  return withLibrarySession(options, async (session, host) => {
    const result = await plan(session, { inputs: inputsOf(paths, options), lock: { timeoutMs: options.lockTimeoutMs ?? 0 }, detailedExitcode: true }, host);
    return { plan: result.plan, changes: result.plan.changes, code: result.code };
  });
}

/** Plans and applies the manifests under `paths`, without asking: calling it is the approval. */
export async function applyFolder(
  paths: string | readonly string[],
  options: MoorOptions & Partial<PlanShape> & { readonly parallelism?: number },
): Promise<ApplyReport> {
  const { apply } = await import('./engine/operations/apply-operation.js');
  return withLibrarySession(options, async (session, host) => {
    const result = await apply(session, { inputs: inputsOf(paths, options), autoApprove: true, lock: { timeoutMs: options.lockTimeoutMs ?? 0 } }, host);
    return { plan: (result.applied ?? result.prepared).plan, outcomes: result.outcomes ?? [], code: result.code };
  });
}

function inputsOf(paths: string | readonly string[], options: MoorOptions & Partial<PlanShape>) {
  return {
    paths: typeof paths === 'string' ? [paths] : [...paths],
    targets: options.targets ?? [],
    prune: options.prune ?? false,
    replace: options.replace ?? [],
    refreshOnly: options.refreshOnly ?? false,
    ...(options.allowMassDelete ? { allowMassDelete: true } : {}),
    ...(options.allowUntracked ? { allowUntracked: true } : {}),
    ...(options.allowDestructive?.length ? { allowDestructive: options.allowDestructive } : {}),
    ...(options.stack !== undefined ? { stack: options.stack } : {}),
  };
}

/** A session as the CLI opens one (the built-in kinds and policies; the built-in local cloud when no endpoint is configured), closed after `fn`. */
async function withLibrarySession<T>(
  options: MoorOptions & { readonly parallelism?: number },
  fn: (session: Session, host: OperationHost) => Promise<T>,
): Promise<T> {
  const { openRunSession } = await import('./cli/run-session.js');
  const cwd = resolve(options.cwd);
  const { env } = options;
  const notify = options.notify ?? (() => undefined);
  const session = await openRunSession({
    configFile: options.config,
    state: options.state,
    ...(options.parallelism !== undefined ? { parallelism: options.parallelism } : {}),
    ...(options.stack !== undefined ? { stack: { name: options.stack, source: 'named' as const } } : {}),
    cwd,
    env,
    // What the session says before an operation starts (the local cloud in use, the stack) goes to the same host.
    events: (event) => {
      void notify(ioMessage(event, new Date()));
    },
  });
  try {
    return await fn(session, { cwd, env, notify });
  } finally {
    await session.close();
  }
}

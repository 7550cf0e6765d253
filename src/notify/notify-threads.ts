// Notifications: the message each stack last posted, kept in state extras so a later run updates it or replies to it.
import type { EventSink } from '../core/events.js';
import { isObject, type JsonObject } from '../core/json.js';
import { UserError } from '../core/diagnostics.js';
import { StateRecorder } from '../engine/state/recorder.js';
import { isStateLocked } from '../engine/state/state-locked-error.js';
import type { StateBackend, StateDocument } from '../engine/state/types.js';
import type { RunKind } from './run-report.js';

/** The key under state `extras`. */
export const NOTIFY_EXTRAS_KEY = 'notify';

/** The standing message of one stack in one conversation. */
export interface ThreadRecord {
  readonly conversationId: string;
  /** The message plan and drift update, and apply replies to. */
  readonly activityId: string;
  /** Hash of the content of that message, to leave an unchanged message alone. */
  readonly contentHash: string;
  /** The run that posted that message: an apply's is never edited (plan and drift post their own). */
  readonly run: RunKind;
  readonly updatedAt: string;
}

function threads(doc: StateDocument): JsonObject {
  const all = doc.extras?.[NOTIFY_EXTRAS_KEY];
  return isObject(all) ? all : {};
}

export function readThread(doc: StateDocument, stackId: string): ThreadRecord | undefined {
  const r = threads(doc)[stackId];
  if (!isObject(r) || typeof r.conversationId !== 'string' || typeof r.activityId !== 'string') return undefined;
  return {
    conversationId: r.conversationId,
    activityId: r.activityId,
    contentHash: typeof r.contentHash === 'string' ? r.contentHash : '',
    run: r.run === 'apply' || r.run === 'plan' ? r.run : 'drift',
    updatedAt: typeof r.updatedAt === 'string' ? r.updatedAt : '',
  };
}

export interface SaveThreadOptions {
  /** The caller already holds the state lock (apply); otherwise it is taken briefly. */
  readonly lockHeld: boolean;
  /** Gets a notice when the record could not be stored because another run holds the lock. */
  readonly events: EventSink;
}

/**
 * Stores the record, keeping every other extra and resource as they are on disk now. A lock held
 * by another run is not an error: the message went out; only the thread is not remembered.
 * Returns whether the record was stored.
 */
export async function saveThread(backend: StateBackend, stackId: string, record: ThreadRecord, o: SaveThreadOptions): Promise<boolean> {
  if (o.lockHeld) {
    await write(backend, stackId, record);
    return true;
  }
  let lock;
  try {
    lock = await backend.lock('moor notify');
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const why = isStateLocked(err) ? 'the state is locked by another run' : 'the state could not be locked';
    o.events({
      type: 'notice',
      message: `moor: ${why}, so the notification's message id was not stored (${err.message}); the next run posts a new message`,
    });
    return false;
  }
  try {
    await write(backend, stackId, record);
    return true;
  } finally {
    await backend.unlock(lock);
  }
}

async function write(backend: StateBackend, stackId: string, record: ThreadRecord): Promise<void> {
  const doc = await backend.read();
  const recorder = new StateRecorder(backend, doc);
  await recorder.putExtras(NOTIFY_EXTRAS_KEY, { ...threads(doc), [stackId]: { ...record } });
}

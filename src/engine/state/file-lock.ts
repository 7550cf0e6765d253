// The lock file beside a state file: who holds it, since when, and whether its holder is gone.
import type { EventSink } from '../../core/events.js';
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { link, mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError } from '../../core/diagnostics.js';
import { isObject } from '../../core/json.js';
import { code } from './atomic-write.js';
import { describeLock } from './describe-lock.js';
import { lostLockError } from './lost-lock.js';
import { processAlive } from './process-alive.js';
import { StateLockedError } from './state-locked-error.js';
import type { LockInfo, UnreadableLock } from './types.js';
import { sleep } from '../../core/abortable-wait.js';

const RETRY_MS = 200;
/** A failed release (EMFILE in a flood of connections, a slow disk) is tried again after these waits. */
const RELEASE_RETRY_MS = [100, 200, 400, 800, 1600];

/** When this process started: with its pid, what names it in a lock file. */
const PROCESS_STARTED = new Date(Math.round(performance.timeOrigin)).toISOString();

/**
 * The ids of the locks this process holds now. A lock file naming this process (pid and start time)
 * whose id is not here was left behind by a release that failed: it holds nothing, and is taken over.
 */
const heldHere = new Set<string>();

/** Takes the lock at `lockPath`, retrying until `waitMs` has passed; throws a UserError naming the holder. */
export async function acquireFileLock(lockPath: string, operation: string, waitMs = 0, events?: EventSink): Promise<LockInfo> {
  const deadline = Date.now() + waitMs;
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  for (;;) {
    const info = newLockInfo(operation);
    if (await tryCreate(lockPath, info)) {
      heldHere.add(info.id);
      return info;
    }
    const holder = await readLock(lockPath);
    if (holder === 'missing') continue; // released between our attempt and the read: try again at once
    // A holder that died on this host (kill -9, crash) cannot release, nor can an earlier run of this
    // very process whose release failed: take the lock over.
    if (holder !== 'unreadable' && (isStale(holder) || leftHere(holder))) {
      await takeOverStale(lockPath, holder, events);
      continue;
    }
    if (Date.now() >= deadline) throw holder === 'unreadable' ? unreadableError(lockPath) : lockedError(holder, false);
    await sleep(Math.min(RETRY_MS, Math.max(0, deadline - Date.now())));
  }
}

/**
 * Removes the lock only if it is still ours (another run may have broken it and taken it since).
 * A failure is tried again a few times; if the file stays, this process no longer counts it as held,
 * so its next run takes it over rather than wait for itself.
 */
export async function releaseFileLock(lockPath: string, lock: LockInfo): Promise<void> {
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const holder = await readLock(lockPath);
        if (typeof holder === 'object' && holder.id === lock.id) await unlink(lockPath).catch(ignoreMissing);
        return;
      } catch (err) {
        if (attempt >= RELEASE_RETRY_MS.length) throw err;
        await sleep(RELEASE_RETRY_MS[attempt]);
      }
    }
  } finally {
    heldHere.delete(lock.id);
  }
}

/** Fencing: throws unless the lock file still names `lock` (it may have been removed by unlock --force, or taken over). */
export async function checkFileLock(lockPath: string, lock: LockInfo, location: string): Promise<void> {
  const holder = await readLock(lockPath);
  if (typeof holder === 'object' && holder.id === lock.id) return;
  const detail =
    typeof holder === 'object'
      ? `taken over by ${describeLock(holder)}`
      : holder === 'missing'
        ? `the lock file ${lockPath} was removed, e.g. by 'moor state unlock --force'`
        : `the lock file ${lockPath} was replaced by one moor cannot read`;
  throw lostLockError(detail, location);
}

/**
 * Removes a lock left behind: without force only when its holder process is gone (same host,
 * pid not running). Returns what was removed, or undefined when no lock was held.
 */
export async function breakFileLock(lockPath: string, force: boolean): Promise<LockInfo | UnreadableLock | undefined> {
  const holder = await readLock(lockPath);
  if (holder === 'missing') return undefined;
  if (holder === 'unreadable') {
    if (!force) throw new UserError(`the lock file ${lockPath} is unreadable; if no run is active, run 'moor state unlock --force'`);
    await unlink(lockPath).catch(ignoreMissing);
    return { unreadableFile: lockPath };
  }
  if (!force && !isStale(holder)) {
    const why =
      holder.host === hostname()
        ? `its process ${holder.pid} is still running`
        : `it was taken on another host (${holder.host}), where moor cannot tell whether the run is still active`;
    throw new StateLockedError(
      `state is locked by ${describeLock(holder)} and ${why}; if you are sure no run is active, run 'moor state unlock --force'`,
      describeLock(holder),
    );
  }
  await unlink(lockPath).catch(ignoreMissing);
  return holder;
}

/**
 * Moves a stale lock aside atomically (rename), so that of two runs finding it, only one removes
 * it; a lock that turns out not to be the stale one (taken meanwhile) is put back.
 */
async function takeOverStale(lockPath: string, stale: LockInfo, events?: EventSink): Promise<void> {
  const aside = `${lockPath}.stale-${randomUUID()}`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if (code(err) === 'ENOENT') return;
    throw err;
  }
  const moved = await readLock(aside);
  if (typeof moved === 'object' && moved.id !== stale.id) await link(aside, lockPath).catch(() => undefined);
  await unlink(aside).catch(ignoreMissing);
  // Said through the run's event stream (the CLI shows it on stderr), not printed from inside the engine.
  events?.({ type: 'lock_taken_over', holder: describeLock(stale) });
}

/**
 * A lock is stale when it was taken on this host by a process that no longer runs: its pid runs no
 * process, or runs this one, started at another time (the pid was reused, as a container's pid 1 is).
 */
export function isStale(l: LockInfo): boolean {
  if (l.host !== hostname()) return false;
  if (l.pid === process.pid) return l.started !== undefined && l.started !== PROCESS_STARTED;
  return !processAlive(l.pid);
}

/** A lock this very process took and no longer holds (its release failed). */
function leftHere(l: LockInfo): boolean {
  return l.host === hostname() && l.pid === process.pid && l.started === PROCESS_STARTED && !heldHere.has(l.id);
}

export async function readLock(lockPath: string): Promise<LockInfo | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (err) {
    if (code(err) === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    const v: unknown = JSON.parse(text);
    if (
      isObject(v) &&
      typeof v.id === 'string' &&
      typeof v.who === 'string' &&
      typeof v.pid === 'number' &&
      typeof v.host === 'string' &&
      typeof v.operation === 'string' &&
      typeof v.since === 'string'
    ) {
      return {
        id: v.id,
        who: v.who,
        pid: v.pid,
        host: v.host,
        operation: v.operation,
        since: v.since,
        ...(typeof v.started === 'string' ? { started: v.started } : {}),
      };
    }
  } catch {
    // fall through: unreadable
  }
  return 'unreadable';
}

function newLockInfo(operation: string): LockInfo {
  const host = hostname();
  return { id: randomUUID(), who: `${userName()}@${host}`, pid: process.pid, host, operation, since: new Date().toISOString(), started: PROCESS_STARTED };
}

/**
 * Creates the lock file with its content in one atomic step: write a private temp file, then
 * hard-link it into place (link fails if the lock exists), so no reader ever sees an empty lock.
 * Filesystems without hard links fall back to open(path, 'wx').
 */
async function tryCreate(lockPath: string, info: LockInfo): Promise<boolean> {
  const body = JSON.stringify(info, null, 2) + '\n';
  const tmp = `${lockPath}.${info.id}.tmp`;
  await writeFile(tmp, body, { mode: 0o600, flag: 'wx' });
  try {
    await link(tmp, lockPath);
    return true;
  } catch (err) {
    if (code(err) === 'EEXIST') return false;
    return await createExclusive(lockPath, body);
  } finally {
    await unlink(tmp).catch(ignoreMissing);
  }
}

async function createExclusive(lockPath: string, body: string): Promise<boolean> {
  try {
    const handle = await open(lockPath, 'wx', 0o600);
    try {
      await handle.writeFile(body);
    } finally {
      await handle.close();
    }
    return true;
  } catch (err) {
    if (code(err) === 'EEXIST') return false;
    throw err;
  }
}

function lockedError(holder: LockInfo, stale: boolean): StateLockedError {
  const tail = stale
    ? `; that process is no longer running (stale lock): run 'moor state unlock' to clear it`
    : `; if no run is active, run 'moor state unlock'`;
  return new StateLockedError(`state is locked by ${describeLock(holder)}${tail}`, describeLock(holder));
}

function unreadableError(lockPath: string): UserError {
  return new UserError(`state is locked (the lock file ${lockPath} is unreadable); if no run is active, run 'moor state unlock --force'`);
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry (some containers): fall back to the environment.
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

function ignoreMissing(err: unknown): void {
  if (code(err) !== 'ENOENT') throw err;
}

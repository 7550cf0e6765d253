// The state lock: holder and since in the message, stale locks, unlock rules, two processes contending.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { FileStateBackend } from '../../src/engine/state/file-backend.js';
import { isStateLocked, StateLockedError } from '../../src/engine/state/state-locked-error.js';
import { recordingSink } from '../../src/core/events.js';
import type { LockInfo } from '../../src/engine/state/types.js';
import { JsonChildren } from './child.js';
import { DEAD_PID } from './dead-pid.js';
import { builtDistDir, fixture } from './built-state.js';

let path: string;
beforeEach(async () => {
  path = join(await mkdtemp(join(tmpdir(), 'moor-lock-')), 'state.json');
});

async function plantLock(info: Partial<LockInfo>): Promise<void> {
  const full: LockInfo = { id: 'x', who: 'alice@elsewhere', pid: 1234, host: 'elsewhere', operation: 'apply', since: '2026-11-21T12:00:00Z', ...info };
  await writeFile(`${path}.lock`, JSON.stringify(full));
}

describe('lock in one process', () => {
  it('writes who, pid, operation and since into the lock file', async () => {
    const lock = await new FileStateBackend(path).lock('apply');
    const onDisk = JSON.parse(await readFile(`${path}.lock`, 'utf8'));
    expect(onDisk).toEqual(lock);
    expect(lock).toMatchObject({ pid: process.pid, host: hostname(), operation: 'apply' });
    expect(lock.who).toMatch(new RegExp(`@${hostname()}$`));
    expect(lock.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a second holder with a message naming the holder and since when', async () => {
    await plantLock({ pid: 1234, who: 'alice@host', operation: 'apply', since: '2026-11-21T12:00:00Z' });
    const err = await new FileStateBackend(path).lock('plan').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      "state is locked by alice@host (pid 1234, moor apply) since 2026-11-21T12:00:00Z; if no run is active, run 'moor state unlock'",
    );
    // Callers tell a held lock by its type (moor watch skips the cycle), not by this text.
    expect(isStateLocked(err)).toBe(true);
    expect((err as StateLockedError).holder).toBe('alice@host (pid 1234, moor apply) since 2026-11-21T12:00:00Z');
  });

  it('takes over a lock whose process is gone on this host (a killed run never blocks the next)', async () => {
    await plantLock({ host: hostname(), pid: DEAD_PID, id: 'dead' });
    const mine = await new FileStateBackend(path).lock('apply');
    expect(mine.pid).toBe(process.pid);
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8')).id).toBe(mine.id);
  });

  it('never takes over a lock held on another host', async () => {
    await plantLock({ host: 'elsewhere', pid: DEAD_PID });
    await expect(new FileStateBackend(path).lock('apply')).rejects.toThrow(/state is locked by/);
  });

  it("unlock removes our own lock but never somebody else's", async () => {
    const a = new FileStateBackend(path);
    const mine = await a.lock('apply');
    await a.unlock(mine);
    await expect(readFile(`${path}.lock`)).rejects.toThrow();
    await plantLock({ id: 'theirs' });
    await a.unlock(mine);
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8')).id).toBe('theirs');
  });
});

describe('stale lock taken over', () => {
  it('is said through the event stream (lock_taken_over, naming the holder), not written to stderr by the engine', async () => {
    await plantLock({ host: hostname(), pid: DEAD_PID, who: 'bob@here' });
    const { sink, events } = recordingSink();
    const written: string[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be put back as it was, on process.stderr
    const write = process.stderr.write;
    process.stderr.write = (chunk: string | Uint8Array) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    };
    try {
      await new FileStateBackend(path, undefined, sink).lock('apply');
    } finally {
      process.stderr.write = write;
    }
    expect(events).toEqual([{ type: 'lock_taken_over', holder: expect.stringContaining('bob@here') }]);
    expect(written.join('')).not.toContain('took over');
  });
});

describe('a lock naming this very process', () => {
  it('left behind by a release that failed (EMFILE) is taken over by its next run, never waited for', async () => {
    const backend = new FileStateBackend(path);
    const first = await backend.lock('moor watch');
    const leftBehind = await readFile(`${path}.lock`, 'utf8');
    await backend.unlock(first);
    await writeFile(`${path}.lock`, leftBehind); // as if the unlink had failed
    const { sink, events } = recordingSink();
    const next = await new FileStateBackend(path, undefined, sink).lock('moor watch');
    expect(next.id).not.toBe(first.id);
    expect(events).toEqual([{ type: 'lock_taken_over', holder: expect.stringContaining(`pid ${process.pid}`) }]);
  });

  it('still held by a run of this process is a held lock', async () => {
    await new FileStateBackend(path).lock('moor watch');
    await expect(new FileStateBackend(path).lock('apply')).rejects.toThrow(new RegExp(`state is locked by .*pid ${process.pid}, moor watch`));
  });

  it('with this pid but another start time is a dead process whose pid was reused: stale', async () => {
    await plantLock({ host: hostname(), pid: process.pid, started: '2001-01-01T00:00:00.000Z', id: 'reused' });
    expect((await new FileStateBackend(path).lock('apply')).id).not.toBe('reused');
  });

  it('records the process start time', async () => {
    const lock = await new FileStateBackend(path).lock('apply');
    expect(new Date(lock.started!).getTime()).toBeCloseTo(performance.timeOrigin, -3);
  });
});

describe('forceUnlock', () => {
  it('says so when no lock is held', async () => {
    expect(await new FileStateBackend(path).forceUnlock(false)).toBeUndefined();
  });

  it('without force removes a stale lock and returns its holder', async () => {
    await plantLock({ host: hostname(), pid: DEAD_PID, who: 'bob@here' });
    expect(await new FileStateBackend(path).forceUnlock(false)).toMatchObject({ who: 'bob@here' });
    await expect(new FileStateBackend(path).lock('apply')).resolves.toBeDefined();
  });

  it('without force refuses a lock whose process still runs, or one from another host', async () => {
    await new FileStateBackend(path).lock('apply');
    await expect(new FileStateBackend(path).forceUnlock(false)).rejects.toThrow(/still running.*--force/);
    await expect(new FileStateBackend(path).forceUnlock(false)).rejects.toBeInstanceOf(StateLockedError);
    await plantLock({ host: 'elsewhere' });
    await expect(new FileStateBackend(path).forceUnlock(false)).rejects.toThrow(/another host \(elsewhere\)/);
  });

  it('with force removes any lock', async () => {
    await new FileStateBackend(path).lock('apply');
    expect(await new FileStateBackend(path).forceUnlock(true)).toMatchObject({ operation: 'apply' });
    await expect(new FileStateBackend(path).lock('apply')).resolves.toBeDefined();
  });

  it('with force removes an unreadable lock file too', async () => {
    await writeFile(`${path}.lock`, 'garbage');
    await expect(new FileStateBackend(path).lock('apply')).rejects.toThrow(/unreadable/);
    expect(await new FileStateBackend(path).forceUnlock(true)).toEqual({ unreadableFile: `${path}.lock` });
    await expect(new FileStateBackend(path).lock('apply')).resolves.toBeDefined();
  });
});

describe('two processes', () => {
  // Processes that take the lock as told (fixtures/lock-taker.mjs), serving these tests in turn.
  const takers = new JsonChildren(fixture('lock-taker.mjs'), [builtDistDir()]);
  afterAll(() => takers.close());
  const lock = (operation: string, waitMs: number) => JSON.stringify({ lock: path, operation, waitMs });
  const release = JSON.stringify({ release: true });

  it('exactly one of two processes taking the lock together gets it; the other is told who holds it', async () => {
    const [a, b] = [takers.get(0), takers.get(1)];
    a.send(lock('apply', 0));
    b.send(lock('apply', 0));
    await Promise.all([a.next(), b.next()]);
    const [ra, rb] = await Promise.all([a.next(), b.next()]);
    const winner = ra.locked ? { child: a, lock: ra.locked as LockInfo } : { child: b, lock: rb.locked as LockInfo };
    const loser = ra.locked ? rb : ra;
    expect(Boolean(ra.locked) !== Boolean(rb.locked)).toBe(true);
    expect(loser.error).toContain(`state is locked by ${winner.lock.who} (pid ${winner.lock.pid}, moor apply) since ${winner.lock.since}`);
    winner.child.send(release);
    expect(await winner.child.next()).toEqual({ released: true });
  });

  it('a waiting process gets the lock once the holder releases it', async () => {
    const [a, b] = [takers.get(0), takers.get(1)];
    a.send(lock('apply', 0));
    await a.next();
    expect((await a.next()).locked).toBeDefined();
    b.send(lock('plan', 120_000));
    await b.next();
    a.send(release);
    await a.next();
    expect((await b.next()).locked).toMatchObject({ operation: 'plan' });
    b.send(release);
    expect(await b.next()).toEqual({ released: true });
  });

  it('three processes incrementing a counter under the lock lose no increment', async () => {
    const runs = [0, 1, 2].map((i) => takers.get(i));
    for (const run of runs) run.send(JSON.stringify({ count: path, times: 8 }));
    // Each answers once all of its 8 increments are written (or with the error that stopped it).
    expect(await Promise.all(runs.map((r) => r.next()))).toEqual([{ counted: 8 }, { counted: 8 }, { counted: 8 }]);
    const doc = await new FileStateBackend(path).read();
    expect(doc.extras).toEqual({ count: 24 });
    expect(doc.serial).toBe(24);
  });

  it('a holder that crashed leaves a stale lock that unlock clears and the next run takes over', async () => {
    const a = takers.get(2);
    takers.discard(2);
    a.send(lock('apply', 0));
    await a.next();
    const { locked } = (await a.next()) as { locked: LockInfo };
    a.send(JSON.stringify({ crash: true }));
    await a.exited();
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8')).id).toBe(locked.id);
    const next = await new FileStateBackend(path).lock('apply');
    expect(next.id).not.toBe(locked.id);
  });
});

describe('fencing: a run that lost its lock file writes nothing more', () => {
  it('assertLockHeld passes while the lock file names this run, and without a lock at all', async () => {
    const backend = new FileStateBackend(path);
    await backend.assertLockHeld();
    await backend.lock('apply');
    await backend.assertLockHeld();
  });

  it('after unlock --force removed the lock file: requests and state writes are refused', async () => {
    const backend = new FileStateBackend(path, '.moor/state.json');
    await backend.lock('apply');
    await new FileStateBackend(path).forceUnlock(true);
    await expect(backend.assertLockHeld()).rejects.toThrow(
      /^lost the state lock \(the lock file .*state\.json\.lock was removed, e\.g\. by 'moor state unlock --force'\)/,
    );
    await expect(backend.appendChanges([{ op: 'extras', key: 'k', value: 1 }])).rejects.toThrow(/lost the state lock/);
    await expect(backend.write({ version: 1, resources: {} })).rejects.toThrow(/records nothing more in \.moor\/state\.json/);
    expect((await backend.read()).serial).toBe(0);
  });

  it('taken over by another run: the message names the new holder, and unlock leaves its lock and state alone', async () => {
    const backend = new FileStateBackend(path);
    // The journal stays open between appends, and unlock does not fold (so close) it for a run that lost the lock.
    onTestFinished(() => backend.close());
    const mine = await backend.lock('apply');
    await backend.appendChanges([{ op: 'extras', key: 'k', value: 1 }]);
    await plantLock({ id: 'newer', who: 'bob@ci', pid: 77, host: 'ci', operation: 'apply', since: '2026-11-23T05:00:00Z' });
    const err = await backend.assertLockHeld().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/^lost the state lock \(taken over by bob@ci \(pid 77, moor apply\) since 2026-11-23T05:00:00Z\)/);
    await backend.unlock(mine);
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8')).id).toBe('newer');
    // The journal was not folded by the run that lost the lock: that is the new holder's to do.
    await expect(readFile(`${path}.journal`, 'utf8')).resolves.toContain('"k"');
  });
});

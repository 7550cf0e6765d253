// The PostgreSQL state lock: one holder at a time across processes, named in refusals; a killed holder never
// leaves it stuck; unlock and unlock --force.
import { afterAll, expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import type { LockInfo } from '../../src/engine/state/types.js';
import { JsonChildren } from './child.js';
import { builtDistDir, fixture } from './built-state.js';
import { describeWithPostgres, workspaceUrl, backendsClosedAfterEach } from './postgres-env.js';
import { StateLockedError } from '../../src/engine/state/state-locked-error.js';

const backend = backendsClosedAfterEach();

const LONG_WAIT = 120_000;

describeWithPostgres('PostgreSQL state lock', () => {
  // Processes that take the lock and record as told (fixtures/postgres-locker.mjs), serving these tests in turn.
  const lockers = new JsonChildren(fixture('postgres-locker.mjs'), [builtDistDir()]);
  afterAll(() => lockers.close());
  /** The i-th locker process, told to take the lock of `url`. */
  const locker = (i: number, url: string, operation: string, waitMs = 0) => {
    const child = lockers.get(i);
    child.send(JSON.stringify({ lock: url, operation, waitMs }));
    return child;
  };
  const release = JSON.stringify({ release: true });
  const put = (name: string) => JSON.stringify({ put: name });

  it('refuses a second holder with a message naming the holder and since when', async () => {
    const url = workspaceUrl('refuse');
    const held = await backend(url).lock('moor apply');
    const err = await backend(url)
      .lock('moor plan')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      `state is locked by ${held.who} (pid ${process.pid}, moor apply) since ${held.since}; PostgreSQL releases the lock when that run ends ` +
        `or its connection drops (a crashed run never keeps it). If the run hangs, 'moor state unlock --force' ends its database session`,
    );
  });

  it('exactly one of two processes taking the lock together gets it; the other is told who holds it', async () => {
    const url = workspaceUrl('contend');
    const a = locker(0, url, 'moor apply');
    const b = locker(1, url, 'moor apply');
    await Promise.all([a.next(), b.next()]);
    const [ra, rb] = await Promise.all([a.next(), b.next()]);
    expect(Boolean(ra.locked) !== Boolean(rb.locked)).toBe(true);
    const winner = ra.locked ? { child: a, lock: ra.locked as LockInfo } : { child: b, lock: rb.locked as LockInfo };
    const loser = ra.locked ? rb : ra;
    expect(loser.name).toBe('UserError');
    expect(loser.error).toContain(`state is locked by ${winner.lock.who} (pid ${winner.lock.pid}, moor apply) since ${winner.lock.since}`);
    winner.child.send(release);
    expect(await winner.child.next()).toEqual({ released: true });
  });

  it('a waiting process gets the lock once the holder releases it', async () => {
    const url = workspaceUrl('wait');
    const a = locker(0, url, 'moor apply');
    await a.next();
    expect((await a.next()).locked).toBeDefined();
    const b = locker(1, url, 'moor plan', LONG_WAIT);
    await b.next();
    a.send(release);
    expect(await a.next()).toEqual({ released: true });
    expect((await b.next()).locked).toMatchObject({ operation: 'moor plan' });
    b.send(release);
    expect(await b.next()).toEqual({ released: true });
  });

  it('a holder killed with SIGKILL does not leave the lock stuck, and what it recorded stays', async () => {
    const url = workspaceUrl('sigkill');
    const a = locker(1, url, 'moor apply');
    lockers.discard(1);
    await a.next();
    const held = (await a.next()).locked as LockInfo;
    a.send(put('web'));
    expect(await a.next()).toEqual({ durable: 'web' });
    a.proc.kill('SIGKILL');
    await a.exited();
    // The server drops the lock when it sees the connection close; the next run waits for that, not for a timeout.
    const next = backend(url);
    const mine = await next.lock('moor apply', LONG_WAIT);
    expect(mine.pid).toBe(process.pid);
    expect(Object.keys((await next.read()).resources)).toEqual(['ContainerGroup/web']);
    await next.unlock(mine);
    expect(held.pid).not.toBe(process.pid);
  });

  it('unlock without force clears the record a crashed holder left and returns it', async () => {
    const url = workspaceUrl('stale');
    const crashed = backend(url);
    const held = await crashed.lock('moor apply');
    // Like a crash: the connection ends without unlocking. The server releases a session's locks
    // before it closes the socket, so once close() returns the advisory lock is gone; the record stays.
    await crashed.close();
    expect(await backend(url).forceUnlock(false)).toEqual(held);
    expect(await backend(url).forceUnlock(false)).toBeUndefined();
  });

  it('unlock without force refuses while the holder is connected', async () => {
    const url = workspaceUrl('live');
    await backend(url).lock('moor apply');
    const err = await backend(url)
      .forceUnlock(false)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(
      /state is locked by .* \(pid \d+, moor apply\) since .*, whose database session \(pid \d+\) is still connected.*'moor state unlock --force' ends its database session$/,
    );
  });

  it("unlock --force ends the holder's session: the lock is free and the holder can record nothing more", async () => {
    const url = workspaceUrl('force');
    const a = locker(0, url, 'moor apply');
    await a.next();
    const held = (await a.next()).locked as LockInfo;
    a.send(put('before'));
    expect(await a.next()).toEqual({ durable: 'before' });
    expect(await backend(url).forceUnlock(true)).toEqual(held);
    const mine = await backend(url).lock('moor apply');
    expect(mine.pid).toBe(process.pid);
    a.send(put('after'));
    const refused = await a.next();
    expect(refused.name).toBe('UserError');
    expect(refused.error).toMatch(/the lock is lost, so this run records nothing more|the connection to .* ended/);
    expect(Object.keys((await backend(url).read()).resources)).toEqual(['ContainerGroup/before']);
    a.send(release);
    expect(await a.next()).toEqual({ released: true });
  });

  it('unlock says so when no lock is held', async () => {
    expect(await backend(workspaceUrl('none')).forceUnlock(false)).toBeUndefined();
    expect(await backend(workspaceUrl('none')).forceUnlock(true)).toBeUndefined();
  });

  it('unlock releases only our own lock, and a released lock can be taken at once', async () => {
    const url = workspaceUrl('release');
    const a = backend(url);
    const lock = await a.lock('moor apply');
    await a.unlock({ ...lock, id: 'not-ours' });
    await expect(backend(url).lock('moor plan')).rejects.toThrow(/state is locked by/);
    // The same type as the file backend's: callers tell a held lock apart by it, not by the text.
    await expect(backend(url).lock('moor plan')).rejects.toBeInstanceOf(StateLockedError);
    await a.unlock(lock);
    await expect(backend(url).lock('moor plan')).resolves.toMatchObject({ operation: 'moor plan' });
  });
});

// Fencing with PostgreSQL state: a run whose lock session was ended ('moor state unlock --force') is told
// it lost the lock, and by whom it was taken, before every write request.
import { expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { describeWithPostgres, workspaceUrl, backendsClosedAfterEach, PG_PASSWORD } from './postgres-env.js';

const backend = backendsClosedAfterEach();

describeWithPostgres('PostgreSQL fencing', () => {
  it('passes while the lock session holds the lock, and when no lock was taken', async () => {
    const url = workspaceUrl('fence-held');
    const plain = backend(url);
    await plain.assertLockHeld();
    const run = backend(url);
    await run.lock('moor apply');
    await run.assertLockHeld();
    await run.assertLockHeld();
  });

  it('after unlock --force ended its session: lost, with the session named as ended', async () => {
    const url = workspaceUrl('fence-ended');
    const run = backend(url);
    await run.lock('moor apply');
    await backend(url).forceUnlock(true);
    const err = await run.assertLockHeld().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/^lost the state lock \(the database session holding it ended: .+\): this run sends no more requests/);
    expect((err as Error).message).not.toContain(PG_PASSWORD);
    // State writes are refused as well.
    await expect(run.appendChanges([{ op: 'extras', key: 'k', value: 1 }])).rejects.toThrow(/lock is lost|lost the state lock/);
  });

  it('taken over by a newer run: the message names it', async () => {
    const url = workspaceUrl('fence-taken');
    const run = backend(url);
    await run.lock('moor apply');
    await backend(url).forceUnlock(true);
    const newer = await backend(url).lock('moor apply');
    const err = await run.assertLockHeld().catch((e: unknown) => e);
    expect((err as Error).message).toContain(`lost the state lock (taken over by ${newer.who} (pid ${newer.pid}, moor apply) since ${newer.since}`);
  });
});

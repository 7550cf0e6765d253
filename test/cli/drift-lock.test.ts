// drift reads state under the lock, as plan does: a run holding it refuses drift at once, or drift
// waits --lock-timeout for it; --lock=false checks read-only with a warning.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, moor, ROOT, workdir } from '../e2e/harness.js';
import { moorProcess } from '../e2e/processes.js';
import { JsonChild } from '../state/child.js';

describe('drift and the state lock', () => {
  test('a held lock refuses drift; --lock-timeout waits for it; --lock=false checks anyway with a warning', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const applied = await moor(dir, undefined, ['apply', 'm', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const holder = new JsonChild(join(ROOT, 'test/state/fixtures/locker.mjs'), [join(ROOT, 'dist'), join(dir, '.moor/state.json'), 'moor apply', '0']);
    let released = false;
    try {
      await holder.next();
      expect((await holder.next()).locked).toBeDefined();
      const locked = await moor(dir, undefined, ['drift', 'm']);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toMatch(/error: .*state is locked by .*moor apply/);

      const readOnly = await moor(dir, undefined, ['drift', 'm', '--lock=false']);
      expect(readOnly.code, readOnly.stderr).toBe(0);
      expect(readOnly.stderr).toContain('warning: checking drift without the state lock (--lock=false)');

      const waiting = moorProcess(dir, undefined, ['drift', 'm', '--lock-timeout', '600']);
      holder.send('release');
      released = true;
      const waited = await waiting;
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout).toContain('No drift');
    } finally {
      if (!released) holder.send('release');
      await holder.exited();
    }
  });
});

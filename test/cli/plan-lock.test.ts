// plan takes the state lock (a run holding it refuses the plan, or plan waits --lock-timeout);
// --lock=false plans read-only with a warning.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, moor, ROOT, workdir } from '../e2e/harness.js';
import { JsonChild } from '../state/child.js';

describe('plan and the state lock', () => {
  test('a held lock refuses the plan; --lock=false plans anyway with a warning', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const holder = new JsonChild(join(ROOT, 'test/state/fixtures/locker.mjs'), [join(ROOT, 'dist'), join(dir, '.moor/state.json'), 'moor apply', '0']);
    try {
      await holder.next();
      expect((await holder.next()).locked).toBeDefined();
      const locked = await moor(dir, undefined, ['plan', 'm']);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toMatch(/error: .*state is locked by .*moor apply/);

      const readOnly = await moor(dir, undefined, ['plan', 'm', '--lock=false']);
      expect(readOnly.code, readOnly.stderr).toBe(0);
      expect(readOnly.stderr).toContain('warning: planning without the state lock (--lock=false)');
      expect(readOnly.stdout).toContain('Plan: 1 to create');
    } finally {
      holder.send('release');
      await holder.exited();
    }
  });
});

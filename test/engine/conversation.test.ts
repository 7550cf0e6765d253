// One conversation per operation: every message of a run — the session's notices, the planner's
// decisions, the results, and the failure that ends it — reaches the operation's host with a time,
// a level and a code, and a held state lock is told by its type.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyFolder, isStateLocked, planFolder, StateLockedError, type IoMessage } from '../../src/index.js';
import { FileStateBackend } from '../../src/engine/state/file-backend.js';

const MANIFEST = 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: Require trusted device\n  isAvailable: true\n';

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'moor-conversation-'));
  writeFileSync(join(dir, 'auth.yaml'), MANIFEST);
  return dir;
}

describe('the conversation of an operation with its host', () => {
  it('gives the host every message of the run, each with a time, a level and a code', async () => {
    const cwd = folder();
    const heard: IoMessage[] = [];
    const report = await planFolder('.', {
      cwd,
      env: {},
      notify: (m) => {
        heard.push(m);
      },
    });
    expect(report.changes.map((c) => [c.address, c.action])).toEqual([['AuthContext/c1', 'create']]);
    expect(report.code).toBe(2);
    for (const m of heard) {
      expect(m.time).toBeInstanceOf(Date);
      expect(m.code).toBe(m.data.type);
    }
    const codes = heard.map((m) => `${m.level} ${m.code}`);
    // The session's own notice (the built-in local cloud), the planner's decision and the result, all through the one host.
    expect(codes).toContain('info notice');
    expect(codes).toContain('debug planned');
    expect(codes.filter((c) => c.endsWith('plan_ready'))).toEqual(['result plan_ready']);
    const applied = await applyFolder('.', {
      cwd,
      env: {},
      notify: (m) => {
        heard.push(m);
      },
    });
    expect(applied.outcomes.map((o) => [o.address, o.status])).toEqual([['AuthContext/c1', 'done']]);
    expect(heard.map((m) => m.code)).toEqual(expect.arrayContaining(['step_started', 'step_finished', 'apply_done']));
    expect((await planFolder('.', { cwd, env: {} })).code).toBe(0);
  });

  it('ends with run_failed from the engine, once, when another run holds the state lock (a StateLockedError)', async () => {
    const cwd = folder();
    const state = join(cwd, 'state.json');
    const other = new FileStateBackend(state);
    const held = await other.lock('moor apply');
    try {
      const heard: IoMessage[] = [];
      const failure = await planFolder('.', {
        cwd,
        env: {},
        state,
        notify: (m) => {
          heard.push(m);
        },
      }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(StateLockedError);
      expect(isStateLocked(failure)).toBe(true);
      const failed = heard.filter((m) => m.code === 'run_failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ level: 'error', data: { type: 'run_failed', command: 'plan', error: failure } });
    } finally {
      await other.unlock(held);
    }
  });
});

// Plan starts reading a manifest's live resources while later manifest files are still being read,
// and a plan that moves records (metadata.movedFrom) reads from the moved state instead.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KindContext, ListAnswer, ListRun, ReadTarget } from '../../core/kind.js';
import { loadConfig } from '../config.js';
import { Masker } from '../../core/masker.js';
import { RequestScheduler } from '../../providers/request-scheduler.js';
import type { Session } from '../session.js';
import type { StateBackend, StateDocument } from '../state/types.js';
import { preparePlan } from '../workflow.js';
import { EMPTY_STATE, FakeCloud, fakeCatalog, memoryBackend } from '../testing/fake-kinds.js';

const thing = (name: string, extra = ''): string => `apiVersion: moor/v1\nkind: Thing\nmetadata: {name: ${name}${extra}}\nspec: {region: west}\n`;

/**
 * A session over fake kinds whose list reader calls `added` with each target's name as it is added
 * (and `foreseen` with each target foreseen, when given); `backend`: the state's, memory by default.
 */
function sessionWith(
  cloud: FakeCloud,
  dir: string,
  state: StateDocument,
  added: (name: string) => void,
  o: { foreseen?: (t: ReadTarget) => void; backend?: StateBackend } = {},
): Session {
  const observed = (t: ReadTarget) => {
    const spec = cloud.live.get(`Thing/${t.name}`);
    return spec && { id: `Thing/${t.name}`, spec, outputs: {} };
  };
  const begin = (_ctx: KindContext, answered?: (i: number, a: ListAnswer) => void): ListRun => {
    const out: ListAnswer[] = [];
    return {
      add(t) {
        added(t.name);
        out.push(observed(t));
        answered?.(out.length - 1, out.at(-1));
      },
      ...(o.foreseen ? { foresee: o.foreseen } : {}),
      finish: async () => out,
    };
  };
  const list = {
    complete: true,
    begin,
    readAll: async () => {
      throw new Error('listed all at once although it could begin early');
    },
  };
  const kinds = fakeCatalog(cloud, {
    list,
    read: async () => {
      throw new Error('read one by one although listed');
    },
  });
  return {
    config: loadConfig(undefined, dir, {}),
    kinds,
    providers: {} as Session['providers'],
    backend: o.backend ?? memoryBackend(state),
    parallelism: 2,
    scheduler: new RequestScheduler({ concurrency: 2 }),
    masker: new Masker(),
    events: () => undefined,
    divert: () => () => undefined,
    close: async () => undefined,
  };
}

describe('plan reads while manifests load', () => {
  it("starts reading the first file's manifests before the next file is read", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-early-reads-'));
    writeFileSync(join(dir, 'a.yaml'), thing('a'));
    writeFileSync(join(dir, 'b.yaml'), thing('b'));
    const cloud = new FakeCloud();
    cloud.live.set('Thing/a', { region: 'west' });
    cloud.live.set('Thing/c', { region: 'west' });
    const added: string[] = [];
    // Once a's listing has begun (foreseen: state is read after the manifests), b.yaml changes to
    // name c: the plan sees c only if b.yaml was read after a's read began.
    const session = sessionWith(cloud, dir, EMPTY_STATE, (name) => added.push(name), {
      foreseen: (t) => {
        if (t.name === 'a') writeFileSync(join(dir, 'b.yaml'), thing('c'));
      },
    });
    const prepared = await preparePlan(session, { paths: [dir], cwd: dir, env: {} });
    expect(added).toEqual(['a', 'c']);
    expect(prepared.plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['Thing/a', 'no-op'],
      ['Thing/c', 'no-op'],
    ]);
  });

  it('reads a moved manifest from the record it moves, not from the state before the move', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-early-reads-'));
    writeFileSync(join(dir, 'a.yaml'), thing('renamed', ', movedFrom: [Thing/old]'));
    const cloud = new FakeCloud();
    cloud.live.set('Thing/renamed', { region: 'west' });
    const state: StateDocument = {
      version: 1,
      serial: 3,
      resources: {
        'Thing/old': { kind: 'Thing', name: 'old', id: 'Thing/old', lastApplied: { region: 'west' }, outputs: {}, updatedAt: '2026-01-01T00:00:00.000Z' },
      },
    };
    const targets: string[] = [];
    const prepared = await preparePlan(
      sessionWith(cloud, dir, state, (name) => targets.push(name)),
      { paths: [dir], cwd: dir, env: {} },
    );
    // Read once early (no record yet) and again from the moved state, where the record is found.
    expect(targets).toEqual(['renamed', 'renamed']);
    expect(prepared.plan.changes.map((c) => [c.address, c.action, c.movedFrom])).toEqual([['Thing/renamed', 'no-op', 'Thing/old']]);
  });

  it('starts listing from the manifests before state is read, and answers each from its record once it is in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-early-reads-'));
    writeFileSync(join(dir, 'a.yaml'), thing('a') + '---\n' + thing('b').replace('region: west', 'region: "${env:REGION}"'));
    const cloud = new FakeCloud();
    cloud.live.set('Thing/a', { region: 'west' });
    cloud.live.set('Thing/b', { region: 'west' });
    const record = { kind: 'Thing', name: 'a', id: 'Thing/a', lastApplied: { region: 'west' }, outputs: {}, updatedAt: '2026-01-01T00:00:00.000Z' };
    const state: StateDocument = { version: 1, serial: 1, resources: { 'Thing/a': record } };
    const order: string[] = [];
    const foreseen: ReadTarget[] = [];
    let stateHeld!: () => void;
    const held = new Promise<void>((resolve) => {
      stateHeld = resolve;
    });
    // State is read only once both manifests were foreseen: a plan that lists after reading state never finishes.
    const stateAfterForeseen = Promise.race([
      held.then(() => {
        order.push('state read');
        return state;
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no listing started while state was read')), 5_000).unref()),
    ]);
    const backend = { ...memoryBackend(state), read: () => stateAfterForeseen };
    const session = sessionWith(cloud, dir, state, (name) => order.push(`add ${name}`), {
      backend,
      foreseen: (t) => {
        order.push(`foresee ${t.name}`);
        foreseen.push(t);
        if (foreseen.length === 2) stateHeld();
      },
    });
    const prepared = await preparePlan(session, { paths: [dir], cwd: dir, env: { REGION: 'west' } });
    expect(order).toEqual(['foresee a', 'foresee b', 'state read', 'add a', 'add b']);
    // Foreseen from the manifest alone: no record yet, and a value whose placeholder is not resolved yet is left out.
    expect(foreseen.map((t) => [t.name, t.recordedId, t.spec])).toEqual([
      ['a', undefined, { region: 'west' }],
      ['b', undefined, {}],
    ]);
    expect(prepared.plan.changes.map((c) => [c.address, c.action])).toEqual([
      ['Thing/a', 'no-op'],
      ['Thing/b', 'no-op'],
    ]);
  });
});

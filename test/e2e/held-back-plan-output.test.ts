// A plan whose only errors are jobs of unknown outcome applies in part: its machine-readable
// outputs say so as its last line does — each held-back change names what it waits for
// (`heldBackBy`) and the jsonl plan_summary's status is "partial", not "failed".
import { afterEach, describe, expect, test } from 'vitest';
import { ENV, exportManifest, moor, refreshManifest, startCloud, workdir, writeFile, type Cloud } from './harness.js';

const EXPORT = 'DatabaseExport/uat-backup';
const REFRESH = 'DatabaseRefresh/uat-from-prod';

/** The state a kill during the export's send leaves (the export never reached the service). */
const CRASHED_EXPORT = JSON.stringify({
  version: 1,
  serial: 1,
  resources: {
    [EXPORT]: {
      kind: 'DatabaseExport',
      name: 'uat-backup',
      lastApplied: { revision: 'r1' },
      updatedAt: 't',
      runs: [{ revision: 'r1', status: 'started', steps: [{ operation: 'export', environmentId: ENV.uat, status: 'Sending', at: 't' }] }],
    },
  },
});

describe('a plan held back by a job of unknown outcome', () => {
  let cloud: Cloud | undefined;
  afterEach(async () => {
    await cloud?.stop();
    cloud = undefined;
  });

  test('--output json names what each held-back change waits for; jsonl ends with status "partial"; exit stays 1', async () => {
    const c = (cloud = await startCloud());
    const dir = workdir({
      'm/export.yaml': exportManifest('uat-backup', { environment: ENV.uat, backupName: 'uat-before-r1', revision: 'r1' }),
      'm/refresh.yaml': refreshManifest('uat-from-prod', { revision: 'r1', dependsOn: [EXPORT] }),
    });
    writeFile(dir, '.moor/state.json', CRASHED_EXPORT);
    const run = (...args: string[]) => moor(dir, c, args);

    const json = await run('plan', 'm', '--output', 'json');
    expect(json.code, json.stderr).toBe(1);
    const changes = JSON.parse(json.stdout).changes as { address: string; heldBackBy?: string }[];
    expect(changes.find((ch) => ch.address === REFRESH)).toMatchObject({ heldBackBy: EXPORT });
    expect(changes.find((ch) => ch.address === EXPORT)).not.toHaveProperty('heldBackBy');

    const jsonl = await run('plan', 'm', '--output', 'jsonl');
    expect(jsonl.code, jsonl.stderr).toBe(1);
    const events = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.find((e) => e.type === 'planned_change' && e.address === REFRESH)).toMatchObject({ heldBackBy: EXPORT });
    expect(events.at(-1)).toMatchObject({ type: 'plan_summary', status: 'partial', errors: 1 });
  }, 60_000);
});

// Plan diagnostics that name a resource are placed at its manifest, so GitHub can mark the file.
import { describe, expect, test } from 'vitest';
import { formatDiagnostic, UserError } from '../../../src/core/diagnostics.js';
import type { JsonPath } from '../../../src/core/json.js';
import type { Manifest } from '../../../src/engine/manifest.js';
import type { StateDocument } from '../../../src/engine/state/types.js';
import { FakeCloud, fakeCatalog, manifest, planWith } from '../../../src/engine/testing/fake-kinds.js';

/** A manifest whose metadata.name is on line 3 of things.yaml (every other path is located on line 9). */
function located(name: string, kind = 'Thing'): Manifest {
  const m = manifest(kind, name, { region: 'west' });
  const locate = (path: JsonPath) => ({ file: 'things.yaml', line: path.join('.') === 'metadata.name' ? 3 : 9, col: 9 });
  return { ...m, source: { file: 'things.yaml', path: '/things.yaml', locate } };
}

describe('plan diagnostics with an address and no location', () => {
  test("a preflight refusal gets its manifest's metadata.name line", async () => {
    const catalog = fakeCatalog(new FakeCloud(), {
      preflight: async (_ctx, creates) => creates.map((c) => ({ address: c.address, message: 'quota exceeded' })),
    });
    const { plan } = await planWith(catalog, [located('a')]);
    expect(plan.diagnostics).toEqual([
      expect.objectContaining({ address: 'Thing/a', message: 'quota exceeded', location: { file: 'things.yaml', line: 3, col: 9 } }),
    ]);
    // Printed, the address still names the resource: one file may hold several manifests.
    expect(formatDiagnostic(plan.diagnostics[0])).toBe('things.yaml:3:9: error: Thing/a: quota exceeded');
  });

  test("a read the service refuses gets its manifest's location", async () => {
    const catalog = fakeCatalog(new FakeCloud(), {
      read: async () => {
        throw new UserError('refused (code Forbidden)');
      },
    });
    const { plan } = await planWith(catalog, [located('a')]);
    expect(plan.diagnostics).toEqual([
      expect.objectContaining({ address: 'Thing/a', message: 'refused (code Forbidden)', location: { file: 'things.yaml', line: 3, col: 9 } }),
    ]);
  });

  test('an orphan in state (no manifest) keeps no location', async () => {
    const state: StateDocument = {
      version: 1,
      serial: 1,
      resources: { 'Thing/gone': { kind: 'Thing', name: 'gone', id: 'Thing/gone', lastApplied: {}, updatedAt: '', protect: true } },
    };
    const { plan } = await planWith(fakeCatalog(new FakeCloud()), [located('a')], state, { prune: true });
    const protectedPrune = plan.diagnostics.find((d) => d.address === 'Thing/gone');
    expect(protectedPrune?.message).toMatch(/is protected/);
    expect(protectedPrune?.location).toBeUndefined();
  });

  test('a diagnostic that has a location keeps it', async () => {
    const { plan } = await planWith(fakeCatalog(new FakeCloud()), [located('p', 'Probe')]);
    expect(plan.diagnostics).toEqual([expect.objectContaining({ address: 'Probe/p', location: { file: 'things.yaml', line: 9, col: 9 } })]);
  });
});

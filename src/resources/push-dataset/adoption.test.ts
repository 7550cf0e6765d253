import { describe, expect, test } from 'vitest';
import type { KindContext } from '../../core/kind.js';
import { adoption } from './adoption.js';

const WORKSPACE = '0b6f3c2e-4d1a-4f7b-9e8c-2a5d6f7e8a91';

function contextWith(datasets: Record<string, unknown>[]): KindContext {
  const analytics = {
    listDatasets: async () => datasets,
    getTables: async () => [{ name: 'Orders', columns: [{ name: 'OrderID', dataType: 'Int64' }] }],
  };
  return { providers: { analytics } as unknown as KindContext['providers'], log: () => undefined };
}

describe('push datasets found by discover', () => {
  test('a dataset that takes no pushed rows is passed over with the reason; two of one name are told apart by id', async () => {
    const ctx = contextWith([
      { id: '14f6071a-0000-4000-8000-000000000001', name: 'sales', addRowsAPIEnabled: true },
      { id: 'edbdad49-0000-4000-8000-000000000002', name: 'sales', addRowsAPIEnabled: true },
      { id: 'aaaaaaaa-0000-4000-8000-000000000003', name: 'imported-report', addRowsAPIEnabled: false },
    ]);
    const passed: string[] = [];
    const found = await adoption.list(
      ctx,
      { resourceGroups: [], workspaces: [WORKSPACE], tenant: false },
      () => undefined,
      (what, reason) => passed.push(`${what}: ${reason}`),
    );
    expect(found.map((f) => [f.name, f.suffix, f.home])).toEqual([
      ['sales', '14f6071a', `workspace-${WORKSPACE}`],
      ['sales', 'edbdad49', `workspace-${WORKSPACE}`],
    ]);
    expect(passed).toEqual([
      `dataset imported-report (id aaaaaaaa-0000-4000-8000-000000000003) in workspace ${WORKSPACE}: not a push dataset (it takes no pushed rows): moor manages push datasets only`,
    ]);
    const spec = adoption.toSpec(found[0]);
    expect(spec.spec).toEqual({ workspaceId: WORKSPACE, name: 'sales', tables: [{ name: 'Orders', columns: [{ name: 'OrderID', dataType: 'Int64' }] }] });
    expect(spec.unwritten.map((u) => u.path[0])).toEqual(['defaultRetentionPolicy', 'defaultMode', 'relationships', 'datasources']);
  });
});

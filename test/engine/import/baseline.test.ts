// What import records as last applied: live values where the service returns them, the
// manifest's where it never does (but not secrets), named elements matched by name.
import { describe, expect, test } from 'vitest';
import { diffResource } from '../../../src/engine/diff/three-way.js';
import { diffRules as datasetRules } from '../../../src/resources/push-dataset/diff.js';
import { ContainerGroup } from '../../../src/resources/container-group/index.js';
import type { JsonObject } from '../../../src/core/json.js';
import { importedBaseline } from '../../../src/engine/import/baseline.js';

const relationships = [{ name: 'R', fromTable: 'B', fromColumn: 'x', toTable: 'A', toColumn: 'x' }];
const dataset: JsonObject = {
  workspaceId: 'w',
  name: 'sales',
  defaultMode: 'Push',
  defaultRetentionPolicy: 'basicFIFO',
  relationships,
  tables: [
    { name: 'A', columns: [{ name: 'x', dataType: 'Int64' }] },
    { name: 'B', columns: [{ name: 'x', dataType: 'Int64' }] },
  ],
};
// The service answers without mode, retention and relationships, and lists tables in its own order.
const liveDataset: JsonObject = {
  workspaceId: 'w',
  name: 'sales',
  tables: [
    { name: 'B', columns: [{ name: 'x', dataType: 'Int64' }] },
    { name: 'A', columns: [{ name: 'x', dataType: 'Int64' }] },
  ],
};

describe('importedBaseline', () => {
  test('an unchanged dataset whose mode and relationships are never returned diffs as nothing', () => {
    const last = importedBaseline(dataset, liveDataset, datasetRules, []);
    expect(last.relationships).toEqual(relationships);
    expect(diffResource({ desired: dataset, last, live: liveDataset, rules: datasetRules, sensitive: [] })).toEqual([]);
  });

  test('what the service does return is compared: a changed column is a change', () => {
    const live = {
      ...liveDataset,
      tables: [
        { name: 'A', columns: [{ name: 'x', dataType: 'string' }] },
        { name: 'B', columns: [{ name: 'x', dataType: 'Int64' }] },
      ],
    };
    const last = importedBaseline(dataset, live, datasetRules, []);
    const fields = diffResource({ desired: dataset, last, live, rules: datasetRules, sensitive: [] });
    expect(fields.map((f) => [f.pointer, f.after])).toEqual([['/tables/0/columns/0/dataType', 'Int64']]);
    expect(fields[0].path).toBe('/tables[name=A]/columns[name=x]/dataType');
  });

  test('a write-only value the service did return is taken from it', () => {
    const last = importedBaseline(dataset, { ...liveDataset, defaultMode: 'Streaming' }, datasetRules, []);
    expect(last.defaultMode).toBe('Streaming');
  });

  test('hidden secrets stay unknown (the plan sets them once); fields the manifest does not set are left out', () => {
    const desired: JsonObject = {
      properties: { containers: [{ name: 'app', properties: { image: 'nginx', environmentVariables: [{ name: 'P', secureValue: 'secret' }] } }] },
    };
    const live: JsonObject = {
      properties: {
        provisioningState: 'Succeeded',
        containers: [{ name: 'app', properties: { image: 'nginx', instanceView: {}, environmentVariables: [{ name: 'P' }] } }],
      },
    };
    const last = importedBaseline(desired, live, ContainerGroup.diff, ContainerGroup.sensitive);
    expect(last).toEqual({ properties: { containers: [{ name: 'app', properties: { image: 'nginx', environmentVariables: [{ name: 'P' }] } }] } });
    expect(JSON.stringify(last)).not.toContain('secret');
  });
});

// What state keeps of a live container group: what ${ref:} reads, not what describes the moment.
import { describe, expect, test } from 'vitest';
import { ContainerGroup } from '../../../src/resources/container-group/index.js';
import { recordedOutputs } from '../../../src/engine/apply/records.js';
import type { JsonObject } from '../../../src/core/json.js';

const view = { state: 'Running', events: [{ name: 'Started', count: 1 }] };
const live = (): JsonObject => ({
  id: '/subscriptions/s/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web',
  name: 'web',
  systemData: { createdAt: '2026-11-26T00:00:00Z', lastModifiedAt: '2026-11-26T00:01:00Z' },
  properties: {
    provisioningState: 'Succeeded',
    ipAddress: { type: 'Public', ip: '10.0.0.4', fqdn: 'web.westeurope.example.net' },
    instanceView: view,
    containers: [{ name: 'app', properties: { image: 'nginx:1.27', instanceView: { currentState: view } } }],
    initContainers: [{ name: 'init', properties: { image: 'busybox', instanceView: { currentState: view } } }],
  },
});

describe('recordedOutputs of a container group', () => {
  test('leaves out the instance views and audit timestamps, keeps what a ${ref:} reads, and changes nothing it was given', () => {
    const observed = { id: 'web', spec: {}, outputs: live() };
    const kept = recordedOutputs(ContainerGroup, observed, {}, []);
    expect(kept).toEqual({
      id: '/subscriptions/s/resourceGroups/rg/providers/Vendor.ContainerInstance/containerGroups/web',
      name: 'web',
      properties: {
        provisioningState: 'Succeeded',
        ipAddress: { type: 'Public', ip: '10.0.0.4', fqdn: 'web.westeurope.example.net' },
        containers: [{ name: 'app', properties: { image: 'nginx:1.27' } }],
        initContainers: [{ name: 'init', properties: { image: 'busybox' } }],
      },
    });
    expect(observed.outputs).toEqual(live());
  });
});

// Representative plans for the renderer tests: every action, both causes, a secret, checks, diagnostics.
import { summarize } from '../../src/engine/plan/types.js';
import type { FieldChange, Plan, PlannedChange } from '../../src/engine/plan/types.js';

const base = { fields: [], patch: [], drift: false, destructive: false } as const;

const field = (f: Partial<FieldChange> & Pick<FieldChange, 'path'>): FieldChange => ({
  op: 'replace',
  cause: 'manifest',
  sensitive: false,
  forcesReplace: false,
  ...f,
});

const changes: PlannedChange[] = [
  {
    ...base,
    address: 'ContainerGroup/web',
    kind: 'ContainerGroup',
    action: 'create',
    fields: [
      field({ path: '/location', pointer: '/location', op: 'add', after: 'westeurope' }),
      field({
        path: '/properties/containers[name=web]/properties/image',
        pointer: '/properties/containers/0/properties/image',
        op: 'add',
        after: 'nginx:1.27',
      }),
      field({
        path: '/properties/containers[name=web]/properties/environmentVariables[name=DB]/secureValue',
        pointer: '/properties/containers/0/properties/environmentVariables/0/secureValue',
        op: 'add',
        after: '(sensitive)',
        sensitive: true,
      }),
      field({ path: '/tags/upstream', pointer: '/tags/upstream', op: 'add', unknown: true }),
    ],
    after: {
      location: 'westeurope',
      tags: { upstream: { unknown: true } },
      properties: { containers: [{ name: 'web', properties: { image: 'nginx:1.27', environmentVariables: [{ name: 'DB', secureValue: '(sensitive)' }] } }] },
    },
    patch: [
      {
        op: 'add',
        path: '',
        value: {
          location: 'westeurope',
          tags: { upstream: { unknown: true } },
          properties: {
            containers: [{ name: 'web', properties: { image: 'nginx:1.27', environmentVariables: [{ name: 'DB', secureValue: '(sensitive)' }] } }],
          },
        },
      },
    ],
  },
  {
    ...base,
    address: 'ContainerGroup/api',
    kind: 'ContainerGroup',
    action: 'update',
    drift: true,
    fields: [
      field({
        path: '/properties/containers[name=app]/properties/image',
        pointer: '/properties/containers/0/properties/image',
        before: 'nginx:1.25',
        after: 'nginx:1.27',
      }),
      field({ path: '/tags/env', before: 'staging', after: 'prod', cause: 'drift' }),
      field({
        path: '/properties/containers[name=app]/properties/environmentVariables[name=DB]/secureValue',
        pointer: '/properties/containers/0/properties/environmentVariables/1/secureValue',
        before: '(sensitive)',
        after: '(sensitive)',
        sensitive: true,
      }),
      field({ path: '/tags/team', op: 'add', after: 'ops|infra `core`' }),
      field({ path: '/tags/old', op: 'remove', before: 'x', cause: 'drift' }),
      field({
        path: '/properties/containers[name=app]/properties/command',
        pointer: '/properties/containers/0/properties/command',
        before: ['sh', '-c', 'echo <hello> && sleep 3600 && echo a very long command line indeed'],
        after: ['sh'],
      }),
      field({ path: '/tags/upstream', before: 'old.example', unknown: true }),
    ],
    patch: [
      { op: 'replace', path: '/properties/containers/0/properties/image', value: 'nginx:1.27' },
      { op: 'replace', path: '/tags/env', value: 'prod' },
      { op: 'replace', path: '/properties/containers/0/properties/environmentVariables/1/secureValue', value: '(sensitive)' },
      { op: 'add', path: '/tags/team', value: 'ops|infra `core`' },
      { op: 'remove', path: '/tags/old' },
      { op: 'replace', path: '/properties/containers/0/properties/command', value: ['sh'] },
      { op: 'replace', path: '/tags/upstream', unknown: true },
    ],
    resent: ['/properties/containers[name=app]/properties/environmentVariables[name=API_KEY]/secureValue'],
  },
  {
    ...base,
    address: 'ContainerGroup/db',
    kind: 'ContainerGroup',
    action: 'replace',
    reason: 'location cannot change in place',
    fields: [
      field({ path: '/location', before: 'westeurope', after: 'northeurope', forcesReplace: true }),
      field({ path: '/tags/tier', before: 'gold', after: 'silver' }),
    ],
    patch: [
      { op: 'replace', path: '/location', value: 'northeurope' },
      { op: 'replace', path: '/tags/tier', value: 'silver' },
    ],
  },
  {
    ...base,
    address: 'ContainerGroup/old',
    kind: 'ContainerGroup',
    action: 'delete',
    reason: 'not in manifests (--prune)',
    patch: [{ op: 'remove', path: '' }],
  },
  {
    ...base,
    address: 'DatabaseRefresh/uat',
    kind: 'DatabaseRefresh',
    action: 'run',
    destructive: true,
    reason: 'revision changed from 3 to 4',
    reasonCode: 'revision-changed',
  },
  { ...base, address: 'AuthContext/c1', kind: 'AuthContext', action: 'no-op' },
  {
    ...base,
    address: 'Check/quota',
    kind: 'Check',
    action: 'no-op',
    check: { passed: true, severity: 'error', message: 'westeurope: 12 of 100 container groups used' },
  },
  {
    ...base,
    address: 'Check/name',
    kind: 'Check',
    action: 'no-op',
    check: { passed: false, severity: 'error', message: "name 'web' is already taken (AlreadyExists)" },
  },
  {
    ...base,
    address: 'Check/spend',
    kind: 'Check',
    action: 'no-op',
    check: { passed: false, severity: 'warning', message: 'invoice INV-1 spend 120.00 EUR exceeds 100.00 EUR' },
  },
];

export const representativePlan: Plan = {
  format: 'moor-plan/1',
  serial: 7,
  changes,
  summary: summarize(changes),
  diagnostics: [
    {
      severity: 'warning',
      message: 'secureValue is a literal secret; use ${env:NAME} or ${file:path}',
      location: { file: 'manifests/web.yaml', line: 14, col: 24 },
      address: 'ContainerGroup/api',
      code: 'literal-secret',
    },
    {
      severity: 'error',
      message: "check failed: name 'web' is already taken (AlreadyExists)",
      location: { file: 'manifests/checks.yaml', line: 3, col: 1 },
      address: 'Check/name',
      code: 'check',
    },
  ],
};

const unchanged: PlannedChange[] = [
  { ...base, address: 'ContainerGroup/web', kind: 'ContainerGroup', action: 'no-op' },
  {
    ...base,
    address: 'Check/quota',
    kind: 'Check',
    action: 'no-op',
    check: { passed: true, severity: 'error', message: 'westeurope: 1 of 100 container groups used' },
  },
];

export const noChangePlan: Plan = { format: 'moor-plan/1', serial: 3, changes: unchanged, summary: summarize(unchanged), diagnostics: [] };

const drifted: PlannedChange[] = [
  {
    ...base,
    address: 'ContainerGroup/api',
    kind: 'ContainerGroup',
    action: 'update',
    drift: true,
    fields: [
      field({ path: '/tags/env', before: 'staging', after: 'prod', cause: 'drift' }),
      field({ path: '/properties/containers[name=app]/properties/image', before: 'nginx:1.25', after: 'nginx:1.27' }),
      field({ path: '/properties/volumes[name=certs]/secret', before: { 'a.txt': 'leaked?' }, after: { 'a.txt': 'never' }, cause: 'drift', sensitive: true }),
    ],
    patch: [{ op: 'replace', path: '/tags/env', value: 'prod' }],
  },
  { ...base, address: 'ContainerGroup/gone', kind: 'ContainerGroup', action: 'create', drift: true, reason: 'deleted outside moor since the last apply' },
  { ...base, address: 'ContainerGroup/web', kind: 'ContainerGroup', action: 'update', fields: [field({ path: '/tags/v', before: '1', after: '2' })] },
];

export const driftPlan: Plan = { format: 'moor-plan/1', serial: 9, changes: drifted, summary: summarize(drifted), diagnostics: [] };

export const noDriftPlan: Plan = noChangePlan;

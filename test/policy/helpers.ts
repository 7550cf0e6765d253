// Test helpers for policies: manifests and Policy documents written to a temp folder, validated with the policies as guard.
import { loadAndValidate, type ValidationResult } from '../../src/engine/validate/index.js';
import { CATALOG } from '../../src/cli/catalog.js';
import { policyGuard } from '../../src/policy/policy-guard.js';
import type { PlannedChange } from '../../src/engine/plan/types.js';
import type { StepFacts } from '../../src/engine/plan/steps.js';
import type { JsonObject } from '../../src/core/json.js';
import { writeTree } from '../validate/helpers.js';

/** Validates the files (relative path -> YAML) from their folder, as `moor validate` does for a stack. */
export async function validateWithPolicies(files: Record<string, string>, stack?: string): Promise<ValidationResult> {
  const dir = writeTree(files);
  return loadAndValidate(['.'], CATALOG, { cwd: dir }, { guard: policyGuard, context: stack === undefined ? {} : { stack } });
}

/** A planned step of the manifest at `address`, with the change given (the rest as for an update). */
export function stepOf(result: ValidationResult, address: string, change: Partial<PlannedChange>, live?: JsonObject): StepFacts {
  const manifest = result.manifests.find((m) => m.address === address)!;
  const kind = CATALOG.kindNamed(manifest.kind)!;
  return {
    kind,
    manifest,
    desired: manifest.spec,
    ...(live ? { observed: { id: address, spec: live, outputs: live } } : {}),
    change: { address, kind: manifest.kind, action: 'update', fields: [], patch: [], drift: false, destructive: false, ...change },
  };
}

export const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';

/** A container group with the given containers (name -> image) and extra spec lines. */
export function group(name: string, images: Record<string, string>, extra = ''): string {
  const containers = Object.entries(images)
    .map(
      ([c, image]) => `      - name: ${c}
        properties:
          image: ${image}
          resources: {requests: {cpu: 1, memoryInGB: 1.5}}`,
    )
    .join('\n');
  return `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: ${name}
spec:
  subscriptionId: ${SUB}
  resourceGroup: rg-web
  location: westeurope${extra}
  properties:
    osType: Linux
    containers:
${containers}
`;
}

/** A Policy document; `body` is the YAML under spec (indented by two spaces). */
export function policy(name: string, body: string): string {
  return `apiVersion: moor/v1\nkind: Policy\nmetadata: {name: ${name}}\nspec:\n${body}`;
}

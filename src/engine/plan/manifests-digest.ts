// A digest of the manifests a plan was made from: what apply --plan compares to refuse a plan
// whose manifests were edited after review. Comments and layout do not count; content does.
import { createHash } from 'node:crypto';
import type { Manifest } from '../manifest.js';
import { canonicalJson } from '../secrets.js';

export function manifestsDigest(manifests: readonly Manifest[]): string {
  const content = [...manifests]
    .sort((a, b) => a.address.localeCompare(b.address))
    .map((m) => ({
      address: m.address,
      apiVersion: m.apiVersion,
      dependsOn: [...m.dependsOn],
      protect: m.protect,
      spec: m.spec,
      ...(m.movedFrom ? { movedFrom: [...m.movedFrom] } : {}),
      ...(m.ignoreChanges ? { ignoreChanges: [...m.ignoreChanges] } : {}),
    }));
  return 'sha256:' + createHash('sha256').update(canonicalJson(content)).digest('hex');
}

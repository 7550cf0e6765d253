// Step 2 of manifest -> validate -> plan -> apply: every rule checked, every problem a diagnostic.
import { sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import { loadManifests } from '../load/index.js';
import { checkAddresses } from './check-addresses.js';
import { validateManifest } from './validate-manifest.js';

export { validateManifest } from './validate-manifest.js';
export { validateSpec } from './spec-validator.js';

export interface ValidationResult {
  manifests: Manifest[];
  /** Errors and warnings, sorted by file, line, column. */
  diagnostics: Diagnostic[];
  /** How many manifest files were read. */
  files: number;
}

/** Loads and validates the manifests under `paths` (default '.'); nothing is resolved, no secret needed. */
export async function loadAndValidate(paths: readonly string[], kinds: KindCatalog): Promise<ValidationResult> {
  const loaded = await loadManifests(paths, kinds);
  const diagnostics = [...loaded.diagnostics, ...validateManifests(loaded.manifests, kinds)];
  return { manifests: loaded.manifests, diagnostics: sortDiagnostics(diagnostics), files: loaded.files };
}

/** Every spec and cross-manifest rule over manifests already loaded. */
export function validateManifests(manifests: readonly Manifest[], kinds: KindCatalog): Diagnostic[] {
  return [...manifests.flatMap((m) => validateManifest(m, kinds)), ...checkAddresses(manifests)];
}

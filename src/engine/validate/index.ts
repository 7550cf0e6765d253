// Step 2 of manifest -> validate -> plan -> apply: every rule checked, every problem a diagnostic.
import { sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
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
export async function loadAndValidate(paths: readonly string[]): Promise<ValidationResult> {
  const loaded = await loadManifests(paths);
  const diagnostics = [...loaded.diagnostics, ...validateManifests(loaded.manifests)];
  return { manifests: loaded.manifests, diagnostics: sortDiagnostics(diagnostics), files: loaded.files };
}

/** Every spec and cross-manifest rule over manifests already loaded. */
export function validateManifests(manifests: readonly Manifest[]): Diagnostic[] {
  return [...manifests.flatMap(validateManifest), ...checkAddresses(manifests)];
}

// Step 2 of manifest -> validate -> plan -> apply: every rule checked, every problem a diagnostic.
import { sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
import { buildGraph, type DependencyGraph } from '../graph.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import { loadManifests } from '../load/index.js';
import { checkAddresses } from './check-addresses.js';
import { validateManifest } from './validate-manifest.js';
import type { StackValues } from '../load/stack-vars.js';

export { validateManifest } from './validate-manifest.js';
export { validateSpec } from './spec-validator.js';

export interface ValidationResult {
  manifests: Manifest[];
  /** Errors and warnings, sorted by file, line, column. */
  diagnostics: Diagnostic[];
  /** How many manifest files were read. */
  files: number;
  /** The manifests' dependency graph, built once here for the whole run (plan and apply take it). */
  graph: DependencyGraph;
}

/**
 * Loads and validates the manifests under `paths` (default '.'); nothing is resolved, no secret needed.
 * `skip`: configuration files under those paths that are not manifests (configFiles of the config).
 * `stack`: the selected stack (its `${var:}` values); without one a `${var:}` is an error.
 */
export async function loadAndValidate(paths: readonly string[], kinds: KindCatalog, skip?: ReadonlySet<string>, stack?: StackValues): Promise<ValidationResult> {
  const loaded = await loadManifests(paths, kinds, skip, stack);
  const graph = buildGraph(loaded.manifests);
  const diagnostics = [...loaded.diagnostics, ...validateManifests(loaded.manifests, kinds, graph)];
  return { manifests: loaded.manifests, diagnostics: sortDiagnostics(diagnostics), files: loaded.files, graph };
}

/** Every spec and cross-manifest rule over manifests already loaded. */
export function validateManifests(manifests: readonly Manifest[], kinds: KindCatalog, graph: DependencyGraph = buildGraph(manifests)): Diagnostic[] {
  return [...manifests.flatMap((m) => validateManifest(m, kinds)), ...checkAddresses(manifests, graph)];
}

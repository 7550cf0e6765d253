// Step 2 of manifest -> validate -> plan -> apply: every rule checked, every problem a diagnostic.
import { hasErrors, sortDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
import { buildGraph, type DependencyGraph } from '../graph.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { Guard, GuardContext, PreparedGuard } from '../guard.js';
import { loadManifests } from '../load/index.js';
import type { LoadOptions } from '../load/load-manifests.js';
import { checkAddresses } from './check-addresses.js';
import { validateDocuments } from './validate-documents.js';
import { validateManifest } from './validate-manifest.js';

export { validateManifest } from './validate-manifest.js';
export { validateSpec } from './spec-validator.js';

export interface ValidationResult {
  manifests: Manifest[];
  /** Documents that are no resource (Policy), checked against their schema. */
  documents: Manifest[];
  /** Errors and warnings, sorted by file, line, column. */
  diagnostics: Diagnostic[];
  /** How many manifest files were read. */
  files: number;
  /** The manifests' dependency graph, built once here for the whole run (plan and apply take it). */
  graph: DependencyGraph;
  /** The guard's rules as compiled for this run (plan reviews its changes with them). */
  guard?: PreparedGuard;
}

/** A guard to run over the manifests once they are valid, and what its evaluations share. */
export interface Guarding {
  readonly guard: Guard;
  readonly context: GuardContext;
}

/** Where loading and validating take their files from, and who hears of each manifest valid on its own. */
export interface ValidateOptions extends Omit<LoadOptions, 'onManifest'> {
  /**
   * Hears each manifest as soon as it is loaded and its own rules hold (schema, placeholders, its
   * kind's rules), before the rules across manifests (addresses, references, cycles) are checked:
   * plan starts reading it while later files still load.
   */
  readonly onValid?: (manifest: Manifest) => void;
}

/**
 * Loads and validates the manifests under `paths` (default '.'); nothing is resolved, no secret needed.
 * `options.skip`: configuration files under those paths that are not manifests (configFiles of the config).
 * `options.stack`: the selected stack (its `${var:}` values); without one a `${var:}` is an error.
 * `guarding`: its documents are compiled and its rules that need no planned change are evaluated.
 */
export async function loadAndValidate(paths: readonly string[], kinds: KindCatalog, options: ValidateOptions, guarding?: Guarding): Promise<ValidationResult> {
  const { onValid, ...load } = options;
  // Each manifest's own rules are checked as it loads, while later files are still read.
  const own: Diagnostic[] = [];
  const onManifest = (m: Manifest): void => {
    const found = validateManifest(m, kinds);
    own.push(...found);
    if (!hasErrors(found)) onValid?.(m);
  };
  const loaded = await loadManifests(paths, kinds, { ...load, onManifest });
  const graph = buildGraph(loaded.manifests);
  const diagnostics = [...loaded.diagnostics, ...own, ...checkAddresses(loaded.manifests, graph)];
  const documents = validateDocuments(loaded.documents, kinds);
  diagnostics.push(...documents.diagnostics);
  const guard = guarding ? await guarding.guard.prepare(documents.valid, kinds, guarding.context) : undefined;
  if (guard && guarding) diagnostics.push(...guard.diagnostics, ...(await guard.checkManifests(loaded.manifests, guarding.context)));
  return { manifests: loaded.manifests, documents: loaded.documents, diagnostics: sortDiagnostics(diagnostics), files: loaded.files, graph, guard };
}

// Loading and validating the manifests of one run as its config says: the selected stack's paths
// (base, then overlays) and `${var:}` values, the config's own files passed over.
import type { KindCatalog } from '../core/kind-catalog.js';
import type { Manifest } from './manifest.js';
import { configFiles, type MoorConfig } from './config.js';
import { manifestPaths } from './config-stacks.js';
import { ignoreRuleProblems } from './config-ignore.js';
import { sortDiagnostics } from '../core/diagnostics.js';
import { loadAndValidate, type Guarding, type ValidationResult } from './validate/index.js';

/**
 * `paths`: those given on the command line (none: the stack's, else the current folder); `guarding`:
 * policies to check them against; `onValid`: hears each manifest valid on its own as it loads.
 */
export async function loadRunManifests(
  config: MoorConfig,
  paths: readonly string[],
  kinds: KindCatalog,
  cwd: string,
  guarding?: Guarding,
  onValid?: (m: Manifest) => void,
): Promise<ValidationResult> {
  // The guard knows the config's stacks, so a policy naming no such stack is an error.
  const known = guarding && { ...guarding, context: { ...guarding.context, stacks: config.stacks ?? [] } };
  const result = await loadAndValidate(manifestPaths(config.stack, paths), kinds, { cwd, skip: configFiles(config, cwd), stack: config.stack, onValid }, known);
  // The config's `ignore:` rules are checked with the manifests: their kinds and paths must exist.
  const ignoring = ignoreRuleProblems(config.ignore ?? [], kinds, config.file, cwd);
  return ignoring.length === 0 ? result : { ...result, diagnostics: sortDiagnostics([...ignoring, ...result.diagnostics]) };
}

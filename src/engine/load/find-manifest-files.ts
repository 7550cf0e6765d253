// Finds the manifest files under the paths given: *.yaml and *.yml, recursively, sorted.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Diagnostic } from '../../core/diagnostics.js';

const MANIFEST_FILE = /\.ya?ml$/i;
/** moor's own configuration, found in a stack's folder beside its manifests; never a manifest. */
const CONFIG_FILE = /^moor\.config\.ya?ml$/i;

/**
 * Absolute paths of the manifest files under `paths` (files named explicitly are always taken).
 * A folder's moor.config.yaml and the absolute paths in `skip` (the config file in use and what it
 * names, such as local-cloud fixtures) are not manifests and are passed over. Relative paths are of `cwd`.
 */
export async function findManifestFiles(
  paths: readonly string[],
  cwd: string,
  skip: ReadonlySet<string> = new Set(),
): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const found = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    const info = await stat(abs).catch(() => undefined);
    if (!info) diagnostics.push({ severity: 'error', message: `${p}: no such file or directory`, code: 'load.path' });
    else if (info.isDirectory()) await walk(abs, found, skip);
    else found.add(abs);
  }
  return { files: [...found].sort(), diagnostics };
}

async function walk(dir: string, found: Set<string>, skip: ReadonlySet<string>): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries) {
    // Dot-folders (.git, .moor) and node_modules never hold the user's manifests.
    if (e.isDirectory()) {
      if (!e.name.startsWith('.') && e.name !== 'node_modules') await walk(join(dir, e.name), found, skip);
    } else if (CONFIG_FILE.test(e.name) || skip.has(join(dir, e.name))) {
      continue;
    } else if (MANIFEST_FILE.test(e.name) && (e.isFile() || (e.isSymbolicLink() && (await isFile(join(dir, e.name)))))) {
      // A linked file is read; a linked folder is not followed (it could loop).
      found.add(join(dir, e.name));
    }
  }
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

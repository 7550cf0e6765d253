// moor watch: notices manifest edits (fs.watch, recursive) so a stack plans soon instead of at its next interval.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** Watches each path (a folder recursively, or a file); `onChange` for any YAML or config file event. Returns a closer. */
export function watchManifests(paths: readonly string[], cwd: string, onChange: () => void): () => void {
  const watchers: FSWatcher[] = [];
  for (const p of new Set(paths.map((x) => resolve(cwd, x)))) {
    try {
      const w = watch(p, { recursive: true, persistent: false }, (_event, file) => {
        // Editors write temp files beside the real one; only manifests (and the config) matter.
        if (file === null || /\.(ya?ml)$/i.test(file)) onChange();
      });
      w.on('error', () => undefined); // a folder removed: the interval still plans
      watchers.push(w);
    } catch {
      // A path that is not there yet: the interval still plans (and reports it).
    }
  }
  return () => {
    for (const w of watchers) w.close();
  };
}

/**
 * Watches one file (moor.config.yaml) through its folder: editors and git replace a file rather than
 * write it in place, and a watch on the file itself would stop at the first such save. Returns a closer.
 */
export function watchFile(file: string, cwd: string, onChange: () => void): () => void {
  const path = resolve(cwd, file);
  try {
    const w = watch(dirname(path), { persistent: false }, (_event, name) => {
      if (name === null || name === basename(path)) onChange();
    });
    w.on('error', () => undefined);
    return () => w.close();
  } catch {
    return () => undefined; // the interval still reads it
  }
}

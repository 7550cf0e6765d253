// validate finds what plan would find of a `${file:}` placeholder's file — missing, outside the
// manifests' root, not a regular file, too large, unreadable — without reading it: validate
// reads no secret and calls no service.
import type { Diagnostic } from '../../core/diagnostics.js';
import { scanReferences } from '../../core/references.js';
import type { Manifest } from '../manifest.js';
import { checkPlaceholderFile, type FilePolicy } from '../placeholder-file.js';
import { placeholderFolders } from '../resolve.js';
import { locatePlaceholder } from '../load/placeholder-location.js';
import { forEachString } from './walk-strings.js';

/** One error per placeholder whose file plan could not read, at the placeholder, in plan's words. */
export function checkPlaceholderFiles(manifests: readonly Manifest[], files?: FilePolicy): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const manifest of manifests) {
    forEachString(manifest.spec, (path, text) => {
      if (!text.includes('${file:')) return;
      const refs = scanReferences(text).refs;
      const { baseDir, root, file } = placeholderFolders(manifest, files, path);
      for (const ref of refs) {
        if (ref.type !== 'file') continue;
        const found = checkPlaceholderFile(ref.path, baseDir, root, files);
        if (found.ok) continue;
        const nth = refs.filter((r) => r.raw === ref.raw && r.index < ref.index).length;
        const location = locatePlaceholder(manifest.source.locate(['spec', ...path]), ref.raw, nth, file);
        out.push({ severity: 'error', address: manifest.address, location, message: `cannot read file ${ref.path} (used by ${ref.raw}): ${found.message}` });
      }
    });
  }
  return out;
}

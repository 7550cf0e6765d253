// Step 1 of manifest -> validate -> plan -> apply: reading manifests from disk.
export { loadManifests, type LoadResult } from './load-manifests.js';
export { findManifestFiles } from './find-manifest-files.js';
export { NAME_PATTERN } from './read-header.js';

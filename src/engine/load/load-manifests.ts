// Loads every manifest under the given paths: files found, YAML parsed, headers checked.
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
import { findManifestFiles } from './find-manifest-files.js';
import { parseManifestFile } from './parse-manifest-file.js';
import { readHeader } from './read-header.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import { substituteStackVars, type StackValues } from './stack-vars.js';
import { applyOverlays, type LayeredDocument, type UnreadLayeredDocument } from './overlays.js';

export interface LoadResult {
  manifests: Manifest[];
  /** Documents of the catalog's document kinds (Policy): not resources, never planned. */
  documents: Manifest[];
  diagnostics: Diagnostic[];
  /** How many files were read (for summaries). */
  files: number;
}

export interface LoadOptions {
  /** The folder relative paths are of; files are named relative to it. */
  readonly cwd: string;
  /** Absolute paths of configuration files a folder may hold (see findManifestFiles). */
  readonly skip?: ReadonlySet<string>;
  /** The selected stack, whose values `${var:}` placeholders take. */
  readonly stack?: StackValues;
  /**
   * Hears each resource manifest as soon as its file is read (with a stack: once every file is,
   * as overlays merge them), so a caller may start on it while later files still load.
   */
  readonly onManifest?: (manifest: Manifest) => void;
}

/** Reads the manifests of `paths` (files or folders); problems come back as diagnostics, never thrown. */
export async function loadManifests(paths: readonly string[], kinds: KindCatalog, { cwd, skip, stack, onManifest }: LoadOptions): Promise<LoadResult> {
  const roots = paths.length > 0 ? paths : ['.'];
  const found = await findManifestFiles(roots, cwd, skip);
  const diagnostics: Diagnostic[] = [...found.diagnostics];
  if (found.files.length === 0 && found.diagnostics.length === 0) {
    diagnostics.push({ severity: 'warning', message: `no *.yaml or *.yml files under ${roots.join(', ')}`, code: 'load.none' });
  }
  const manifests: Manifest[] = [];
  const nonResources: Manifest[] = [];
  const take = (doc: LayeredDocument): void => {
    const { value: manifest, diagnostics: problems } = readHeader(doc.value, doc.source, kinds);
    diagnostics.push(...problems);
    if (!manifest) return;
    if (kinds.documentNamed(manifest.kind)) return void nonResources.push({ ...manifest, root: doc.root });
    const resource = { ...manifest, root: doc.root };
    manifests.push(resource);
    onManifest?.(resource);
  };
  // A stack's later paths overlay its earlier ones, so its documents are taken once all are read;
  // without a stack, paths are only read together and each file's documents are taken at once.
  const layered: LayeredDocument[] = [];
  const unread: UnreadLayeredDocument[] = [];
  const given = roots.map((r) => resolve(cwd, r));
  for (const abs of found.files) {
    const file = relative(cwd, abs) || abs;
    const parsed = await parseManifestFile(abs, file).catch((err: unknown) => ({
      documents: [],
      diagnostics: [
        {
          severity: 'error' as const,
          message: `cannot read file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
          location: { file, line: 1, col: 1 },
        },
      ],
      unread: [{}],
    }));
    diagnostics.push(...parsed.diagnostics);
    const root = rootOf(abs, given);
    const layer = stack ? layerOf(abs, given) : 0;
    if (stack) unread.push(...parsed.unread.map((u) => ({ ...u, layer })));
    for (const doc of parsed.documents) {
      const substituted = substituteStackVars(doc.value, doc.source, stack);
      diagnostics.push(...substituted.diagnostics);
      const document = { value: substituted.value, source: doc.source, root, layer };
      if (stack) layered.push(document);
      else take(document);
    }
  }
  if (stack) applyOverlays(layered, kinds, unread).forEach(take);
  return { manifests, documents: nonResources, diagnostics, files: found.files.length };
}

/**
 * The folder a file was found under, where its `${file:}` placeholders must stay: the widest path
 * given that holds it (so `moor plan . sub` gives one root), or the folder of a file given by name.
 */
function rootOf(abs: string, roots: readonly string[]): string {
  const holders = roots.flatMap((r) => (r === abs ? [dirname(r)] : isInside(abs, r) ? [r] : []));
  return holders.sort((a, b) => a.length - b.length)[0] ?? dirname(abs);
}

/** The index of the last path given that holds a file: an overlay folder inside the base's folder counts as the overlay. */
function layerOf(abs: string, roots: readonly string[]): number {
  let layer = 0;
  roots.forEach((r, i) => {
    if (r === abs || isInside(abs, r)) layer = i;
  });
  return layer;
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

// Gives a plan diagnostic that names a resource but no place (a quota preflight, a service's
// refusal while reading) the place of that resource's manifest, so a reader and a GitHub
// annotation can point at the file. An orphan has no manifest and keeps no location.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';

/** The diagnostics, each one with an address but no location placed at its manifest's `metadata.name` (or the document start) (printed, the address still leads its message). */
export function locateAtManifests(diagnostics: readonly Diagnostic[], manifests: readonly Manifest[]): Diagnostic[] {
  // Built only when a diagnostic needs it: a plan of 100,000 manifests usually has none.
  let byAddress: Map<string, Manifest> | undefined;
  return diagnostics.map((d) => {
    if (d.location || !d.address) return d;
    byAddress ??= new Map(manifests.map((m) => [m.address, m]));
    const manifest = byAddress.get(d.address);
    // locate falls back to the nearest ancestor that exists: the document start when metadata.name is missing.
    return manifest ? { ...d, location: manifest.source.locate(['metadata', 'name']), atManifest: true } : d;
  });
}

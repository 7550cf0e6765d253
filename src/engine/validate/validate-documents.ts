// Documents that are no resource (Policy): each checked against its kind's schema, one per address.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import type { Manifest } from '../manifest.js';
import { validateSpec } from './spec-validator.js';

/** Their problems, and the documents without errors (what a guard may read). */
export function validateDocuments(documents: readonly Manifest[], kinds: KindCatalog): { diagnostics: Diagnostic[]; valid: Manifest[] } {
  const diagnostics: Diagnostic[] = [];
  const valid: Manifest[] = [];
  const first = new Map<string, Manifest>();
  for (const d of documents) {
    const kind = kinds.documentNamed(d.kind);
    if (!kind) continue;
    const problems = validateSpec(kind, d.spec).map((p): Diagnostic => ({
      severity: p.severity,
      message: p.message,
      code: p.code,
      address: d.address,
      location: d.source.locate(p.path, p.at),
    }));
    const earlier = first.get(d.address);
    if (earlier) {
      const at = earlier.source.locate(['metadata', 'name']);
      problems.push({
        severity: 'error',
        code: 'address.duplicate',
        address: d.address,
        location: d.source.locate(['metadata', 'name']),
        message: `duplicate address ${d.address} (first defined at ${at.file}:${at.line}:${at.col}): a ${d.kind} is never overlaid, not even by a stack's later path; give it a name of its own`,
      });
    } else {
      first.set(d.address, d);
    }
    diagnostics.push(...problems);
    if (!problems.some((p) => p.severity === 'error')) valid.push(d);
  }
  return { diagnostics, valid };
}

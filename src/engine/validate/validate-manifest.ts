// Validates one manifest's spec: JSON Schema, placeholders, and the kind's own cross-reference rules.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Manifest } from '../manifest.js';
import type { KindCatalog } from '../../core/kind-catalog.js';
import { checkPlaceholders } from './check-placeholders.js';
import { openValueWarnings } from './open-values.js';
import { ruleProblems } from './rule-problems.js';
import { validateDefaultedName, validateSpec } from './spec-validator.js';
import type { SpecProblem } from './spec-problem.js';
import { locatePlaceholder } from '../load/placeholder-location.js';
import { valueFile } from '../resolve.js';
import { checkIgnorePath } from './check-ignore-paths.js';

export function validateManifest(m: Manifest, kinds: KindCatalog): Diagnostic[] {
  const kind = kinds.kindNamed(m.kind);
  if (!kind) return [];
  const problems: SpecProblem[] = [
    ...validateSpec(kind, m.spec),
    ...validateDefaultedName(kind, m.name, m.spec),
    ...checkPlaceholders(kind, m.spec),
    ...ruleProblems(kind, m.spec),
    ...openValueWarnings(kind.specSchema, m.spec),
  ];
  const ignored: SpecProblem[] = (m.ignoreChanges ?? []).flatMap((text, i) => {
    const checked = checkIgnorePath(text, kind);
    return typeof checked === 'string'
      ? [
          {
            path: ['metadata', 'ignoreChanges', i],
            at: 'value' as const,
            message: `metadata.ignoreChanges[${i}]: ${checked}`,
            severity: 'error' as const,
            code: 'manifest.ignore',
          },
        ]
      : [];
  });
  problems.push(...ignored);
  return problems.map((p) => {
    const at = m.source.locate(p.path, p.at);
    const location = p.placeholder === undefined ? at : locatePlaceholder(at, p.placeholder, 0, valueFile(m, p.path));
    return { severity: p.severity, message: p.message, code: p.code, address: m.address, location };
  });
}

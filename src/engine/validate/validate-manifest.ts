// Validates one manifest's spec: JSON Schema, placeholders, and the kind's own cross-reference rules.
import type { Diagnostic } from '../diagnostics.js';
import type { Manifest } from '../manifest.js';
import { kindNamed } from '../../resources/registry.js';
import type { Report } from '../../resources/kind.js';
import { checkPlaceholders } from './check-placeholders.js';
import { fieldPath } from './field-path.js';
import { validateDefaultedName, validateSpec } from './spec-validator.js';
import type { SpecProblem } from './spec-problem.js';

export function validateManifest(m: Manifest): Diagnostic[] {
  const kind = kindNamed(m.kind);
  if (!kind) return [];
  const problems: SpecProblem[] = [...validateSpec(kind, m.spec), ...validateDefaultedName(kind, m.name, m.spec), ...checkPlaceholders(kind, m.spec)];
  const report: Report = (path, message, options) => {
    const full = ['spec', ...path];
    problems.push({ path: full, at: options?.at ?? 'value', message: `${fieldPath(full)}: ${message}`, severity: options?.severity ?? 'error', code: 'rule' });
  };
  kind.checkSpec?.(m.spec, report);
  return problems.map((p) => ({
    severity: p.severity, message: p.message, code: p.code, address: m.address, location: m.source.locate(p.path, p.at),
  }));
}

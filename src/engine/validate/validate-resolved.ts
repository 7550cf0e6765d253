// The spec rules again, on values that `${env:}`/`${file:}` only supply at plan time: nothing a
// service would refuse is sent, whatever the placeholders held.
import type { Diagnostic } from '../diagnostics.js';
import type { JsonObject } from '../json.js';
import type { Manifest } from '../manifest.js';
import type { KindDefinition, Report } from '../../resources/kind.js';
import { fieldPath } from './field-path.js';
import type { SpecProblem } from './spec-problem.js';
import { validateSpec } from './spec-validator.js';

export function validateResolved(manifest: Manifest, kind: KindDefinition, resolved: JsonObject): Diagnostic[] {
  const problems: SpecProblem[] = [...validateSpec(kind, resolved)];
  const report: Report = (path, message, options) => {
    const full = ['spec', ...path];
    problems.push({ path: full, at: options?.at ?? 'value', message: `${fieldPath(full)}: ${message}`, severity: options?.severity ?? 'error', code: 'rule' });
  };
  kind.checkSpec?.(resolved, report);
  return problems
    .filter((p) => p.severity === 'error')
    .map((p) => ({
      severity: p.severity,
      code: p.code,
      address: manifest.address,
      location: manifest.source.locate(p.path, p.at),
      message: `${p.message} (after resolving placeholders)`,
    }));
}

// The spec rules again, on values that `${env:}`/`${file:}` only supply at plan time: nothing a
// service would refuse is sent, whatever the placeholders held.
import type { Diagnostic } from '../../core/diagnostics.js';
import type { JsonObject } from '../../core/json.js';
import type { Manifest } from '../manifest.js';
import type { KindDefinition } from '../../core/kind.js';
import { ruleProblems } from './rule-problems.js';
import type { SpecProblem } from './spec-problem.js';
import { validateSpec } from './spec-validator.js';

export function validateResolved(manifest: Manifest, kind: KindDefinition, resolved: JsonObject): Diagnostic[] {
  const problems: SpecProblem[] = [...validateSpec(kind, resolved), ...ruleProblems(kind, resolved)];
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

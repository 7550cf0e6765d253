// A kind's cross-reference rules (checkSpec) as spec problems, with paths from the document root.
import type { JsonObject } from '../../core/json.js';
import type { KindDefinition, Report } from '../../core/kind.js';
import { fieldPath } from '../../core/field-path.js';
import type { SpecProblem } from './spec-problem.js';

export function ruleProblems(kind: KindDefinition, spec: JsonObject): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const report: Report = (path, message, options) => {
    const full = ['spec', ...path];
    problems.push({ path: full, at: options?.at ?? 'value', message: `${fieldPath(full)}: ${message}`, severity: options?.severity ?? 'error', code: 'rule' });
  };
  kind.checkSpec?.(spec, report);
  return problems;
}

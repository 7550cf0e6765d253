// Cross-reference rules of the DatabaseRefresh spec: a refresh never targets its own source.
import type { JsonObject } from '../../core/json.js';
import { literal } from '../../core/rule-helpers.js';
import type { Report } from '../../core/kind.js';

export function checkSpec(spec: JsonObject, report: Report): void {
  const source = literal(spec.sourceEnvironmentId);
  const target = literal(spec.targetEnvironmentId);
  if (target !== undefined && source?.toLowerCase() === target.toLowerCase()) {
    report(['targetEnvironmentId'], 'must differ from sourceEnvironmentId: a refresh would overwrite its own source');
  }
}

// Cross-reference rules of the DatabaseExport spec: none beyond its JSON Schema (it has no inner references).
import type { JsonObject } from '../../core/json.js';
import type { Report } from '../../core/kind.js';

export function checkSpec(_spec: JsonObject, _report: Report): void {
  // nothing to check: the JSON Schema says it all
}

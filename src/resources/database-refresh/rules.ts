// Cross-reference rules of the DatabaseRefresh spec beyond JSON Schema. OWNER: validation helper (placeholder).
import type { JsonObject } from '../../engine/json.js';
import type { Report } from '../kind.js';

export function checkSpec(_spec: JsonObject, _report: Report): void {}

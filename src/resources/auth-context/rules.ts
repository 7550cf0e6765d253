// Cross-reference rules of the AuthContext spec: none beyond its JSON Schema (it has no inner references).
import type { JsonObject } from '../../engine/json.js';
import type { Report } from '../kind.js';

export function checkSpec(_spec: JsonObject, _report: Report): void {}

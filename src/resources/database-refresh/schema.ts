// JSON Schema of the DatabaseRefresh spec. OWNER: validation helper (placeholder).
import type { JsonObject } from '../../engine/json.js';

export const specSchema: JsonObject = { type: 'object' };

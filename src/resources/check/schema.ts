// JSON Schema of the Check spec. OWNER: validation helper (placeholder).
import type { JsonObject } from '../../engine/json.js';

export const specSchema: JsonObject = { type: 'object' };

// JSON Schema of the AuthContext spec. OWNER: validation helper (placeholder).
import type { JsonObject } from '../../engine/json.js';

export const specSchema: JsonObject = { type: 'object' };

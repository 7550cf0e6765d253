// JSON Schema of the AuthContext spec: the fields Graph lets a PATCH change, plus the id c1..c99.
import type { JsonObject } from '../../core/json.js';
import { boolean, object, patterned, string } from '../../core/schema-parts.js';

export const specSchema: JsonObject = object({
  id: patterned('^c([1-9]|[1-9][0-9])$', 'must be c1 to c99', { defaultsToMetadataName: true }),
  displayName: string(),
  description: string(),
  isAvailable: boolean,
});

// Cross-reference rules of the Check spec: exactly one kind of check per manifest.
import type { JsonObject } from '../../core/json.js';
import type { Report } from '../../core/kind.js';

export const CHECK_TYPES = ['quota', 'nameAvailable', 'eventstreamExists', 'spend'] as const;

export function checkSpec(spec: JsonObject, report: Report): void {
  const present = CHECK_TYPES.filter((t) => Object.hasOwn(spec, t));
  if (present.length === 0) report([], `needs exactly one of ${CHECK_TYPES.join(', ')}`, { at: 'key' });
  else if (present.length > 1) report([present[1]], `needs exactly one of ${CHECK_TYPES.join(', ')} (found ${present.join(', ')})`, { at: 'key' });
}

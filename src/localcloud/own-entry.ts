// Lookups of stored records by names taken from a request path.

/**
 * The record's own entry under a key a client chose: undefined when there is none, also for names every
 * object inherits ('__proto__', 'constructor', 'toString'), which would otherwise find Object.prototype's members.
 */
export function ownEntry<T>(record: Partial<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

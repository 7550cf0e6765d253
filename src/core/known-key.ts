// Lookups in a map the caller filled itself from the same keys: a missing entry is a bug in moor,
// never a user's mistake, and is named as one rather than surfacing later as "cannot read undefined".

/** The value under `key` of a map built from the very keys it is asked for. */
export function knownEntry<V>(map: ReadonlyMap<string, V>, key: string, what = 'entry'): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`internal error: no ${what} for ${key}`);
  return value;
}

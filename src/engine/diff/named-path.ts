// Field paths as people read them: elements of named arrays by their key
// ('/properties/containers[name=web]/properties/image'), not by a position that can shift.

/** An object key, an array index, or an element of a named array (its key field and value). */
export type NamedSegment = string | number | { readonly key: string; readonly value: string };

/** '/a/b[name=x]/c': object keys escaped as in RFC 6901 (~0, ~1); named elements in brackets. */
export function namedPath(segments: readonly NamedSegment[]): string {
  return segments.map((s) => (typeof s === 'object' ? `[${s.key}=${s.value}]` : '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1'))).join('');
}

/**
 * The named segments of a path into `doc`: an element of an array whose key `keyOf` names (and
 * which has that key) by its key, anything else as it is.
 */
export function namedSegmentsOf(
  doc: unknown,
  path: readonly (string | number)[],
  keyOf: (arrayPath: (string | number)[]) => string | undefined,
): NamedSegment[] {
  const out: NamedSegment[] = [];
  let cur: unknown = doc;
  path.forEach((seg, i) => {
    const key = Array.isArray(cur) ? keyOf(path.slice(0, i)) : undefined;
    const element: unknown = Array.isArray(cur)
      ? cur[Number(seg)]
      : cur !== null && typeof cur === 'object'
        ? (cur as Record<string, unknown>)[String(seg)]
        : undefined;
    const name = key !== undefined && element !== null && typeof element === 'object' ? (element as Record<string, unknown>)[key] : undefined;
    const scalar = typeof name === 'string' || typeof name === 'number' || typeof name === 'boolean';
    out.push(key !== undefined && scalar ? { key, value: String(name) } : seg);
    cur = element;
  });
  return out;
}

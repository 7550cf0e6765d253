// Field paths as people read them: elements of named arrays by their key
// ('/properties/containers[name=web]/properties/image'), not by a position that can shift.

/** An object key, an array index, or an element of a named array (its key field and value). */
export type NamedSegment = string | number | { readonly key: string; readonly value: string };

/** '/a/b[name=x]/c': object keys escaped as in RFC 6901 (~0, ~1); named elements in brackets. */
export function namedPath(segments: readonly NamedSegment[]): string {
  return segments.map((s) => (typeof s === 'object' ? `[${s.key}=${s.value}]` : '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1'))).join('');
}

// A rule's fieldPath: where its diagnostic points, written as in Kubernetes admission policies
// (spec.properties.containers[0].name, metadata.labels['app.kubernetes.io/name']).
import type { JsonPath } from '../core/json.js';

/** One step: `.key`, `[0]`, `['key']` or `["key"]`. */
const STEP = /^(?:\.([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\])/;

export type ParsedFieldPath = { readonly ok: true; readonly path: JsonPath } | { readonly ok: false; readonly message: string };

/** The path from the document root; a leading `object.` is allowed (the variable the rules read). */
export function parseFieldPath(text: string): ParsedFieldPath {
  const path: (string | number)[] = [];
  const trimmed = text.trim().replace(/^object(?=[.[])/, '');
  let rest = trimmed.startsWith('.') || trimmed.startsWith('[') ? trimmed : `.${trimmed}`;
  while (rest.length > 0) {
    const m = STEP.exec(rest);
    if (!m)
      return {
        ok: false,
        message: `cannot read the field path at '${rest.replace(/^\./, '')}': write keys with dots, indices as [0] and other keys as ['key']`,
      };
    // The groups of the alternatives that did not match are undefined.
    const [, key, index, single, double] = m as readonly (string | undefined)[];
    if (key !== undefined) path.push(key);
    else if (index !== undefined) path.push(Number(index));
    else path.push((single ?? double ?? '').replace(/\\(.)/g, '$1'));
    rest = rest.slice(m[0].length);
  }
  return { ok: true, path };
}

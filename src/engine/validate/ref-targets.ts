// The `${ref:Kind/name#/pointer}` placeholders of a spec, with where each one is written.
import type { JsonObject, JsonPath } from '../../core/json.js';
import { scanReferences } from '../../core/references.js';
import { forEachString } from './walk-strings.js';

export interface RefUse {
  /** The referenced address, Kind/name. */
  readonly address: string;
  readonly pointer: string;
  /** Path of the string value, relative to spec. */
  readonly path: JsonPath;
}

/** Every well-formed `${ref:}` in `spec` (malformed ones are reported by validation). */
export function refTargets(spec: JsonObject): RefUse[] {
  const out: RefUse[] = [];
  forEachString(spec, (path, text) => {
    if (!text.includes('${ref:')) return;
    for (const r of scanReferences(text).refs) {
      if (r.type === 'ref') out.push({ address: r.address, pointer: r.pointer, path: [...path] });
    }
  });
  return out;
}

// How a path into a manifest is shown to a user: spec.properties.containers[0].name.
import type { JsonPath } from './json.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function fieldPath(path: JsonPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number' || /^\d+$/.test(seg)) out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

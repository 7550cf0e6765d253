// Which parts of `object` a rule reads. A manifest is made a CEL value only where the rules look:
// converting whole documents (every integer to a bigint, every secret path checked) was most of
// what policies added to validate.
import type { ASTNode } from '@marcbachmann/cel-js';
import { isObject, type JsonObject, type JsonPath, type JsonValue } from '../core/json.js';
import { selectChain } from './all-sites.js';
import { childNodes } from './cel.js';

/** The paths of `object` read ([] is the whole document), or 'all' when `object` is used as a whole. */
export type ObjectReads = readonly JsonPath[] | 'all';

export function objectReads(ast: ASTNode): ObjectReads {
  const paths: JsonPath[] = [];
  const visit = (node: ASTNode) => {
    const chain = selectChain(node, 'object');
    if (chain) paths.push(chain);
    else childNodes(node).forEach(visit);
  };
  visit(ast);
  return paths.some((p) => p.length === 0) ? 'all' : paths;
}

export function unionReads(reads: readonly ObjectReads[]): ObjectReads {
  return reads.some((r) => r === 'all') ? 'all' : reads.flatMap((r) => r as readonly JsonPath[]);
}

/** Read paths as a tree of keys; `true`: everything below is read. */
export type ReadTree = true | Map<string, ReadTree>;

export function readTree(reads: ObjectReads): ReadTree {
  if (reads === 'all') return true;
  const root = new Map<string, ReadTree>();
  for (const path of reads) {
    if (path.length === 0) return true;
    let node = root;
    for (let i = 0; i < path.length; i++) {
      const key = String(path[i]);
      const last = i === path.length - 1;
      const child = node.get(key);
      if (child === true) break;
      if (last) {
        node.set(key, true);
        break;
      }
      const next = child ?? new Map<string, ReadTree>();
      node.set(key, next);
      node = next;
    }
  }
  return root;
}

/** `value` with only what `tree` reaches (arrays and read values kept whole, shared, not copied). */
export function prunedDocument<T extends JsonValue>(value: T, tree: ReadTree): T {
  if (tree === true || !isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, below] of tree) {
    if (Object.hasOwn(value, key)) out[key] = prunedDocument(value[key], below);
  }
  return out as T;
}

// The CEL value of a document in one pass: YAML integers as CEL ints (bigint, as Kubernetes reads
// JSON integers), decimals as doubles, and each value at a secret's path as '(sensitive)'.
import { isObject, pattern, type JsonValue } from '../core/json.js';
import { SENSITIVE_MASK } from '../engine/secrets.js';

export type CelValue = null | boolean | number | bigint | string | CelValue[] | { [key: string]: CelValue };

/** Secret path patterns as a tree of segments ('*': any key or index); `secret`: a pattern ends here. */
interface SecretTree {
  readonly next: Map<string, SecretTree>;
  secret: boolean;
}

const trees = new Map<string, SecretTree>();

/** The tree of `patterns` under `root` (['spec']), built once per distinct list (manifests share them). */
export function secretTree(root: readonly string[], patterns: readonly string[]): SecretTree {
  const key = `${root.join('/')}\n${patterns.join('\n')}`;
  let tree = trees.get(key);
  if (!tree) {
    tree = { next: new Map(), secret: false };
    for (const p of patterns) {
      let node = tree;
      for (const seg of [...root, ...pattern(p)]) {
        let child = node.next.get(seg);
        if (!child) {
          child = { next: new Map(), secret: false };
          node.next.set(seg, child);
        }
        node = child;
      }
      node.secret = true;
    }
    trees.set(key, tree);
  }
  return tree;
}

/** `value` as CEL sees it; `at`: the secret trees that still apply at this value. */
export function celValue(value: JsonValue, at: readonly SecretTree[] = []): CelValue {
  if (at.length > 0 && at.some((t) => t.secret)) return SENSITIVE_MASK;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map((v, i) => celValue(v, below(at, String(i))));
  if (isObject(value)) {
    const out: Record<string, CelValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = celValue(v, below(at, k));
    return out;
  }
  return value;
}

function below(at: readonly SecretTree[], key: string): readonly SecretTree[] {
  if (at.length === 0) return at;
  const out: SecretTree[] = [];
  for (const t of at) {
    const exact = t.next.get(key);
    if (exact) out.push(exact);
    const any = t.next.get('*');
    if (any) out.push(any);
  }
  return out;
}

/**
 * Makes each value at `paths` of `root` (a CEL value, changed in place) a stand-in that calls
 * `read(i)` when an expression reads it: validate cannot know these values, so a rule that reads
 * one has no verdict there. A path the value does not hold (pruned: no rule reads it) is skipped.
 */
export function watchReads(root: CelValue, paths: readonly (readonly (string | number)[])[], read: (index: number) => void): void {
  if (root === null || typeof root !== 'object') return;
  paths.forEach((path, index) => {
    let parent: object = root;
    for (const seg of path.slice(0, -1)) {
      const next = (parent as Record<string, CelValue | undefined>)[String(seg)];
      if (next === null || next === undefined || typeof next !== 'object') return;
      parent = next;
    }
    const key = String(path[path.length - 1]);
    if (!Object.hasOwn(parent, key)) return;
    Object.defineProperty(parent, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        read(index);
        return SENSITIVE_MASK;
      },
    });
  });
}

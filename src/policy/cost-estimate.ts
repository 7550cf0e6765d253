// What a rule that ran out of its cost limit would have cost on the resource: its macros' nesting
// times the sizes of the lists they range over (read from the resource itself), so the message
// names a figure (`costs about 100,000,000`) rather than only the limit it passed.
import type { ASTNode } from '@marcbachmann/cel-js';
import { childNodes } from './cel.js';

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

type Bound = ReadonlyMap<string, unknown>;

/** The estimated steps of `ast` on `variables`; a list it cannot size counts as one element. */
export function estimateCost(ast: ASTNode, variables: Readonly<Record<string, unknown>>): number {
  return cost(ast, new Map(Object.entries(variables)));
}

function cost(node: ASTNode, bound: Bound): number {
  if (node.op === 'rcall') {
    const [name, receiver, args] = node.args;
    if (MACROS.has(name) && args.length >= 2 && args[0].op === 'id') {
      const range = valueOf(receiver, bound);
      const items = Array.isArray(range) ? range : range !== null && typeof range === 'object' ? Object.keys(range) : [undefined];
      const inner = new Map(bound).set(args[0].args, largest(items));
      const body = args.slice(1).reduce((sum, a) => sum + cost(a, inner), 0);
      return cost(receiver, bound) + items.length * (1 + body);
    }
  }
  return childNodes(node).reduce((sum, child) => sum + cost(child, bound), 1);
}

/** The element that stands for all of a range: the biggest (a list of lists ranges over the longest). */
function largest(items: readonly unknown[]): unknown {
  let best: unknown = items[0];
  for (const item of items) if (sizeOf(item) > sizeOf(best)) best = item;
  return best;
}

function sizeOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return value !== null && typeof value === 'object' ? Object.keys(value).length : 0;
}

/** The value of a select chain over the variables (`object.spec.x`, `c.ports`), a macro's result size kept, else undefined. */
function valueOf(node: ASTNode, bound: Bound): unknown {
  if (node.op === 'id') return bound.get(node.args);
  if (node.op === '.' || node.op === '.?') {
    const [operand, key] = node.args;
    const head = valueOf(operand, bound);
    return head !== null && typeof head === 'object' && !Array.isArray(head) ? (head as Record<string, unknown>)[key] : undefined;
  }
  if (node.op === 'list') return node.args;
  if (node.op === 'rcall') {
    const [name, receiver] = node.args;
    // map() and filter() give (at most) as many elements as their range.
    if (name === 'map' || name === 'filter') return valueOf(receiver, bound);
  }
  return undefined;
}

// Where a rule checks every element of an array of the manifest (`object.spec.x.all(c, P)`): its
// predicate compiled alone, so a finding whose fieldPath goes into that array can point at the
// element that fails it — and at the field of the element the predicate tests.
import { serialize, type ASTNode } from '@marcbachmann/cel-js';
import type { JsonPath } from '../core/json.js';
import { childNodes, compileCel, type CelProgram } from './cel.js';

export interface AllSite {
  /** The array's path from the document root (object.spec.x -> ['spec', 'x']). */
  readonly arrayPath: JsonPath;
  readonly element: string;
  readonly predicate: CelProgram;
  /** The one field of the element the predicate reads (c.properties.image -> ['properties', 'image']), if it reads one. */
  readonly field: JsonPath;
}

/** Every all() over a path of `object` in the expression whose predicate compiles alone. */
export function allSites(ast: ASTNode): AllSite[] {
  const out: AllSite[] = [];
  const visit = (node: ASTNode) => {
    const site = node.op === 'rcall' ? siteOf(node) : undefined;
    if (site) out.push(site);
    childNodes(node).forEach(visit);
  };
  visit(ast);
  return out;
}

function siteOf(node: ASTNode): AllSite | undefined {
  if (node.op !== 'rcall') return undefined;
  const [name, receiver, args] = node.args;
  if (name !== 'all' || args.length !== 2 || args[0].op !== 'id') return undefined;
  const arrayPath = selectChain(receiver, 'object');
  if (!arrayPath) return undefined;
  const element = args[0].args;
  const compiled = compileCel(serialize(args[1]), 'bool', element);
  if (!compiled.ok) return undefined;
  return { arrayPath, element, predicate: compiled.program, field: readField(args[1], element) };
}

/** `root.a.b['c'][0]` as ['a', 'b', 'c', 0]; undefined for anything else. */
export function selectChain(node: ASTNode, root: string): JsonPath | undefined {
  if (node.op === 'id') return node.args === root ? [] : undefined;
  if (node.op === '.' || node.op === '.?') {
    const [operand, key] = node.args;
    const head = selectChain(operand, root);
    return head && [...head, key];
  }
  if (node.op === '[]' || node.op === '[?]') {
    const [operand, index] = node.args;
    const head = selectChain(operand, root);
    if (!head || index.op !== 'value') return undefined;
    const v = index.args;
    if (typeof v === 'string') return [...head, v];
    if (typeof v === 'bigint' || typeof v === 'number') return [...head, Number(v)];
    return undefined;
  }
  return undefined;
}

/** The longest field path of `element` the predicate reads, when every path it reads lies on it. */
function readField(predicate: ASTNode, element: string): JsonPath {
  const chains: JsonPath[] = [];
  const visit = (node: ASTNode) => {
    const chain = selectChain(node, element);
    if (chain) {
      chains.push(chain);
      return;
    }
    childNodes(node).forEach(visit);
  };
  visit(predicate);
  const longest = chains.reduce<JsonPath>((a, b) => (b.length > a.length ? b : a), []);
  const onIt = chains.every((c) => c.every((seg, i) => seg === longest[i]));
  return onIt ? longest : [];
}

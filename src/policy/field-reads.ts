// A rule that reads a field the kinds it matches do not have (a misspelling: `object.spec.propertis`,
// `c.properties.imag`) can never hold as meant; found once, at the rule's line with "did you mean",
// from the kinds' schemas — not as a finding at every resource it is evaluated on.
import type { ASTNode } from '@marcbachmann/cel-js';
import { isObject, type JsonObject, type JsonPath } from '../core/json.js';
import type { KindCatalog } from '../core/kind-catalog.js';
import type { KindDefinition } from '../core/kind.js';
import { fieldPath as shownPath } from '../core/field-path.js';
import { documentSchema } from '../engine/validate/document-schema.js';
import { suggest } from '../engine/validate/ajv-messages.js';
import { childNodes } from './cel.js';

/** Macros whose first argument names an element of the list they are called on. */
const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/** An element of a list, or any key of a map: a path segment no name stands for. */
const ANY = '*';

/** The paths of `object` the expression reads, through the variables of its macros too (c.image in containers.all(c, …)). */
export function fieldReads(ast: ASTNode): JsonPath[] {
  const out: JsonPath[] = [];
  const visit = (node: ASTNode, bound: ReadonlyMap<string, JsonPath>) => {
    if (node.op === 'rcall') {
      const [name, receiver, args] = node.args;
      if (MACROS.has(name) && args.length >= 2 && args[0].op === 'id') {
        visit(receiver, bound);
        const range = chainOf(receiver, bound);
        const inner = new Map(bound);
        if (range) inner.set(args[0].args, [...range, ANY]);
        else inner.delete(args[0].args);
        args.slice(1).forEach((a) => visit(a, inner));
        return;
      }
    }
    const chain = node.op === '.' || node.op === '.?' || node.op === '[]' || node.op === '[?]' ? chainOf(node, bound) : undefined;
    if (chain) out.push(chain);
    childNodes(node).forEach((child) => visit(child, bound));
  };
  visit(ast, new Map([['object', []]]));
  return out;
}

/** `object.a.b`, `c.d[0]`, `x['k']` as a path from the document root; an index that is no literal is ANY. */
function chainOf(node: ASTNode, bound: ReadonlyMap<string, JsonPath>): JsonPath | undefined {
  if (node.op === 'id') return bound.get(node.args);
  if (node.op === '.' || node.op === '.?') {
    const [operand, key] = node.args;
    const head = chainOf(operand, bound);
    return head && [...head, key];
  }
  if (node.op === '[]' || node.op === '[?]') {
    const [operand, index] = node.args;
    const head = chainOf(operand, bound);
    if (!head) return undefined;
    const v: unknown = index.op === 'value' ? index.args : undefined;
    return [...head, typeof v === 'string' ? v : ANY];
  }
  return undefined;
}

const schemas = new Map<string, JsonObject>();

/**
 * The first read no kind of `kinds` has a field for, as the message of a rule's error; undefined
 * when every read may exist (a schema that leaves a place open allows whatever is read below it).
 */
export function unknownFieldRead(ast: ASTNode, kinds: readonly KindDefinition[], catalog: KindCatalog): string | undefined {
  if (kinds.length === 0) return undefined;
  for (const path of fieldReads(ast)) {
    const misses = kinds.map((kind) => missOf(schemaOf(kind, catalog), path));
    const first = misses[0];
    if (!first || misses.some((m) => m === undefined)) continue;
    const which = kinds.length === 1 ? kinds[0].kind : `none of ${kinds.map((k) => k.kind).join(', ')}`;
    const read = shownPath(path.slice(0, first.at + 1).map((s) => (s === ANY ? 0 : s)));
    return `reads object.${read}, but ${which} has no field ${String(path[first.at])} there${suggest(String(path[first.at]), first.schema)}`;
  }
  return undefined;
}

function schemaOf(kind: KindDefinition, catalog: KindCatalog): JsonObject {
  let schema = schemas.get(kind.kind);
  if (!schema) schemas.set(kind.kind, (schema = documentSchema(catalog, kind)));
  return schema;
}

/** Where `path` leaves what `schema` allows: the index of the segment and the object schema it is not in. */
function missOf(schema: JsonObject, path: JsonPath): { at: number; schema: JsonObject } | undefined {
  let s: unknown = schema;
  for (let i = 0; i < path.length; i++) {
    if (!isObject(s) || s.anyOf || s.oneOf || s.allOf || s.$ref) return undefined;
    const seg = path[i];
    if (s.type === 'array' || isObject(s.items)) {
      if (seg !== ANY && typeof seg !== 'number' && !/^\d+$/.test(seg)) return undefined;
      s = s.items;
      continue;
    }
    if (isObject(s.properties) && seg !== ANY && Object.hasOwn(s.properties, String(seg))) {
      s = s.properties[String(seg)];
      continue;
    }
    if (isObject(s.additionalProperties)) {
      s = s.additionalProperties;
      continue;
    }
    if (s.additionalProperties === false && seg !== ANY) return { at: i, schema: s };
    return undefined;
  }
  return undefined;
}

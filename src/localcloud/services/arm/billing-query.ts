// A minimal OData-like query over transactions: `filter` (eq, ne, gt, ge, lt, le joined by `and`), `orderBy` and `search`.
import { getAt, isObject, type JsonObject, type JsonValue } from '../../../core/json.js';

type Literal = string | number | boolean;
type Operator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

interface Clause {
  path: string[];
  op: Operator;
  value: Literal;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const CLAUSE = /^\s*([A-Za-z][A-Za-z0-9_]*(?:\/[A-Za-z][A-Za-z0-9_]*)*)\s+(eq|ne|gt|ge|lt|le)\s+('(?:[^']|'')*'|-?\d+(?:\.\d+)?|true|false)\s*(?:(and)\s+|$)/i;

function literal(text: string): Literal {
  if (text.startsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  return Number(text);
}

/** Parses `properties/kind eq 'Reservation' and properties/billingCurrency eq 'USD'`. */
export function parseFilter(text: string): Parsed<Clause[]> {
  const clauses: Clause[] = [];
  let rest = text;
  while (rest.trim() !== '') {
    const m = CLAUSE.exec(rest);
    if (!m) return { ok: false, message: `The filter '${text}' is not supported; use clauses like properties/kind eq 'Reservation' joined by 'and'.` };
    clauses.push({ path: m[1].split('/'), op: m[2].toLowerCase() as Operator, value: literal(m[3]) });
    rest = rest.slice(m[0].length);
    if (!m[4] && rest.trim() !== '') return { ok: false, message: `The filter '${text}' is not supported.` };
  }
  return { ok: true, value: clauses };
}

/** An Amount compares by its value; strings compare without case. */
function comparable(v: JsonValue | undefined): Literal | undefined {
  if (isObject(v) && typeof v.value === 'number') return v.value;
  if (typeof v === 'string') return v.toLowerCase();
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  return undefined;
}

function test(item: JsonObject, c: Clause): boolean {
  const actual = comparable(getAt(item, c.path) as JsonValue | undefined);
  const wanted = typeof c.value === 'string' ? c.value.toLowerCase() : c.value;
  if (c.op === 'eq') return actual === wanted;
  if (c.op === 'ne') return actual !== wanted;
  if (actual === undefined || typeof actual !== typeof wanted) return false;
  const a = actual as string | number,
    w = wanted as string | number;
  return c.op === 'gt' ? a > w : c.op === 'ge' ? a >= w : c.op === 'lt' ? a < w : a <= w;
}

export function applyFilter(items: readonly JsonObject[], clauses: readonly Clause[]): JsonObject[] {
  return items.filter((item) => clauses.every((c) => test(item, c)));
}

function hasText(value: JsonValue | undefined, needle: string): boolean {
  if (typeof value === 'string') return value.toLowerCase().includes(needle);
  if (Array.isArray(value)) return value.some((v) => hasText(v, needle));
  if (isObject(value)) return Object.values(value).some((v) => hasText(v, needle));
  return false;
}

/** Items where any string field contains the search text, ignoring case. */
export function applySearch(items: readonly JsonObject[], search: string): JsonObject[] {
  const needle = search.toLowerCase();
  return items.filter((item) => hasText(item.properties, needle) || hasText(item.name, needle));
}

/** Sorts by `properties/date desc` (several keys separated by commas). */
export function applyOrderBy(items: readonly JsonObject[], text: string): Parsed<JsonObject[]> {
  const keys: { path: string[]; desc: boolean }[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*([A-Za-z][A-Za-z0-9_/]*)\s*(asc|desc)?\s*$/i.exec(part);
    if (!m) return { ok: false, message: `The orderBy '${text}' is not supported; use e.g. properties/date desc.` };
    keys.push({ path: m[1].split('/'), desc: (m[2] as string | undefined)?.toLowerCase() === 'desc' }); // the direction is optional
  }
  const sorted = [...items].sort((x, y) => {
    for (const k of keys) {
      const a = comparable(getAt(x, k.path) as JsonValue | undefined) ?? '';
      const b = comparable(getAt(y, k.path) as JsonValue | undefined) ?? '';
      if (a !== b) return (a < b ? -1 : 1) * (k.desc ? -1 : 1);
    }
    return 0;
  });
  return { ok: true, value: sorted };
}

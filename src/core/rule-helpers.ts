// Small helpers for the kinds' cross-reference rules (rules.ts): lists, names, duplicates.
import { isObject, type JsonObject, type JsonPath, type JsonValue } from './json.js';
import { hasPlaceholder } from './references.js';
import type { Report } from './kind.js';
import { fieldPath } from './field-path.js';

/** The objects of an array-valued field with their indexes (non-objects skipped: the schema reports them). */
export function itemsOf(value: JsonValue | undefined): { item: JsonObject; index: number }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, index) => (isObject(item) ? [{ item, index }] : []));
}

/** A string a rule can compare: placeholders are known only at plan time, so they are skipped. */
export function literal(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' && !hasPlaceholder(value) ? value : undefined;
}

/** Reports the second and later items whose `key` repeats an earlier one, at that key's value. */
export function reportDuplicates(entries: readonly { item: JsonObject; path: JsonPath }[], key: string, what: string, report: Report): void {
  const first = new Map<string, JsonPath>();
  for (const { item, path } of entries) {
    const raw = item[key];
    const value = typeof raw === 'number' ? String(raw) : literal(raw);
    if (value === undefined) continue;
    const earlier = first.get(value);
    if (earlier) report([...path, key], `duplicate ${what} ${JSON.stringify(value)} (also at spec.${fieldPath(earlier)})`);
    else first.set(value, path);
  }
}

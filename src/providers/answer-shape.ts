// Answers are checked before they are believed: JSON by content type, and the fields a client reads.
import { isObject } from '../core/json.js';
import type { ServiceName } from '../core/services.js';
import { ServiceError } from './service-error.js';

/** What a check needs to name the answer in its error: service, request, status and URL. */
export interface AnswerContext {
  readonly service: ServiceName;
  readonly method: string;
  readonly label: string;
  readonly status: number;
  readonly url: URL;
}

export type JsonRecord = Record<string, unknown>;

/**
 * The error of an answer moor cannot believe. A write's outcome is unknown (the service may
 * have carried it out before answering nonsense), so the caller checks before sending it again.
 */
export function invalidAnswer(a: AnswerContext, problem: string): ServiceError {
  return new ServiceError({
    service: a.service,
    method: a.method,
    path: a.url.pathname,
    label: a.label,
    status: a.status,
    code: 'InvalidAnswer',
    serviceMessage: `${problem} (from service '${a.service}' at ${a.url.origin}${a.url.pathname})`,
    outcomeUnknown: a.method !== 'GET',
  });
}

/** The parsed JSON of a success body, or why it is not JSON; an empty body is undefined. */
export function parseJsonAnswer(text: string, contentType: string | null): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (text.length === 0) return { ok: true, value: undefined };
  if (!contentType || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    return { ok: false, problem: `the answer is ${contentType ? contentType.split(';')[0].trim() : 'without a content type'}, not JSON` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: 'the answer is not valid JSON' };
  }
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v === undefined) return 'empty';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The body as a JSON object; anything else (null, an array, text, nothing) is an error. */
export function expectObject(a: AnswerContext, body: unknown, what: string): JsonRecord {
  if (!isObject(body)) throw invalidAnswer(a, `expected ${what} (a JSON object), got ${kindOf(body)}`);
  return body;
}

/** The body as a JSON array. */
export function expectArrayBody(a: AnswerContext, body: unknown, what: string): unknown[] {
  if (!Array.isArray(body)) throw invalidAnswer(a, `expected ${what} (a JSON array), got ${kindOf(body)}`);
  return body;
}

/** `obj[field]` as an array (a page's items); missing or another type is an error, never an empty list. */
export function expectArray(a: AnswerContext, obj: JsonRecord, field: string): unknown[] {
  const v = obj[field];
  if (!Array.isArray(v)) throw invalidAnswer(a, `expected an array in '${field}', got ${kindOf(v)}`);
  return v;
}

/** `obj[field]` as a non-empty string. */
export function expectString(a: AnswerContext, obj: JsonRecord, field: string): string {
  const v = obj[field];
  if (typeof v !== 'string' || v.length === 0) throw invalidAnswer(a, `expected a text in '${field}', got ${kindOf(v)}`);
  return v;
}

/** `obj[field]` as a boolean. */
export function expectBoolean(a: AnswerContext, obj: JsonRecord, field: string): boolean {
  const v = obj[field];
  if (typeof v !== 'boolean') throw invalidAnswer(a, `expected true or false in '${field}', got ${kindOf(v)}`);
  return v;
}

/** `obj[field]` when present must be an object. */
export function optionalObject(a: AnswerContext, obj: JsonRecord, field: string): JsonRecord | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  if (!isObject(v)) throw invalidAnswer(a, `expected an object in '${field}', got ${kindOf(v)}`);
  return v;
}

/** The answer names what was asked for (ARM names compare without case). */
export function expectSame(a: AnswerContext, field: string, actual: string, asked: string, ignoreCase = false): void {
  const same = ignoreCase ? actual.toLowerCase() === asked.toLowerCase() : actual === asked;
  if (!same) throw invalidAnswer(a, `asked for '${asked}' but the answer's ${field} is '${actual.slice(0, 200)}'`);
}

/** Each item of a list as an object with the string fields given; the first bad one is the error. */
export function expectItems(a: AnswerContext, items: readonly unknown[], what: string, stringFields: readonly string[] = []): JsonRecord[] {
  return items.map((item, i) => {
    const o = expectObject(a, item, `${what} #${i + 1}`);
    for (const f of stringFields) {
      if (typeof o[f] !== 'string') throw invalidAnswer(a, `${what} #${i + 1} has no text in '${f}'`);
    }
    return o;
  });
}

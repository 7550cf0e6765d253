// Secrets in state and plans: salted hashes of sensitive values and a walker over sensitive spec paths.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { fromPointer, isObject, matchesPattern, pattern, underPattern } from '../core/json.js';
import type { JsonObject, JsonPath, JsonValue } from '../core/json.js';

const HASHED = /^sha256:([^:\s]+):([0-9a-f]{64})$/;

/**
 * What state records for a secret moor adopted (moor discover) but never saw: the service hides it.
 * Plan shows no change while the manifest gives no value for it (an unset `${env:}`, an empty map),
 * and a change once one is given: moor cannot tell whether it equals the live one.
 */
export const ADOPTED_SECRET = 'moor:adopted-secret:value-unknown';

/** Whether a desired value leaves an adopted secret as it is: its placeholder is not set, or the map is empty. */
export function keepsAdoptedSecret(value: JsonValue | undefined): boolean {
  return value === ADOPTED_SECRET || (isObject(value) && Object.keys(value).length === 0);
}

/** What renderers print in place of a secret. */
export const SENSITIVE_MASK = '(sensitive)';

/** 'sha256:<salt>:<hex>' of a value; a fresh random 16-byte salt unless one is given. */
export function hashSecret(value: string, salt: string = randomBytes(16).toString('hex')): string {
  if (!/^[^:\s]+$/.test(salt)) throw new Error('a salt must be non-empty and hold no colon or space');
  return `sha256:${salt}:${digest(salt, value)}`;
}

/** Whether `value` hashes to `hashed` (a hashSecret string); false for anything malformed. */
export function matchesHash(value: string, hashed: string): boolean {
  const m = HASHED.exec(hashed);
  if (!m) return false;
  // Constant-time compare so timing reveals nothing about how close a guess was.
  return timingSafeEqual(Buffer.from(digest(m[1], value), 'hex'), Buffer.from(m[2], 'hex'));
}

export function isHashed(v: unknown): v is string {
  return typeof v === 'string' && HASHED.test(v);
}

/** The text a sensitive value is hashed as: a string as is, anything else as canonical JSON. */
export function secretText(value: JsonValue): string {
  return typeof value === 'string' ? value : canonicalJson(value);
}

/** Whether a (resolved) sensitive value equals what state recorded as its hash. */
export function matchesSecret(value: JsonValue, hashed: JsonValue | undefined): boolean {
  return typeof hashed === 'string' && matchesHash(secretText(value), hashed);
}

/** JSON with object keys sorted at every level, so equal values hash equally. */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(value[k])).join(',') + '}';
  }
  return JSON.stringify(value);
}

/**
 * `spec` with each value at a sensitive path pattern is replaced by fn(value, path).
 * A pattern that matches an object or array hands the whole subtree to fn as one value.
 * Unchanged subtrees are shared with the input, which is never modified.
 */
export function mapSensitive(spec: JsonObject, patterns: readonly string[], fn: (value: JsonValue, path: JsonPath) => JsonValue): JsonObject {
  return walk(spec, [], parsedPatterns(patterns), fn) as JsonObject;
}

/** A kind's and a manifest's pattern lists are kept and used for every record: each is parsed once. */
const parsedCache = new WeakMap<readonly string[], readonly string[][]>();

function parsedPatterns(patterns: readonly string[]): readonly string[][] {
  let parsed = parsedCache.get(patterns);
  if (!parsed) {
    parsed = patterns.map(pattern);
    parsedCache.set(patterns, parsed);
  }
  return parsed;
}

/** The spec as state keeps it: every sensitive value as a salted hash (hashes already there are kept). */
export function hashSensitive(spec: JsonObject, patterns: readonly string[]): JsonObject {
  return mapSensitive(spec, patterns, (v) => (v === ADOPTED_SECRET || isHashed(v) ? v : hashSecret(secretText(v))));
}

/** The spec as output may show it: every sensitive value as '(sensitive)'. */
export function maskSensitive(spec: JsonObject, patterns: readonly string[]): JsonObject {
  return mapSensitive(spec, patterns, () => SENSITIVE_MASK);
}

/** Whether a path (array or RFC 6901 pointer) lies at or under a sensitive pattern. */
export function isSensitivePath(path: JsonPath | string, patterns: readonly string[]): boolean {
  const segs = typeof path === 'string' ? fromPointer(path) : path;
  return patterns.some((p) => underPattern(segs, pattern(p)));
}

function walk(value: JsonValue, path: JsonPath, patterns: readonly string[][], fn: (value: JsonValue, path: JsonPath) => JsonValue): JsonValue {
  if (path.length > 0 && patterns.some((p) => matchesPattern(path, p))) return fn(value, path);
  // Only descend where some pattern can still match below: specs are mostly not secret.
  const live = patterns.filter((p) => p.length > path.length && prefixMatches(path, p));
  if (live.length === 0) return value;
  // What nothing sensitive changed is the input's own, not a copy: state and plans hold specs once.
  if (Array.isArray(value)) {
    const out = value.map((v, i) => walk(v, [...path, i], live, fn));
    return out.every((v, i) => v === value[i]) ? value : out;
  }
  if (isObject(value)) {
    // Only the keys a pattern names next (all of them under a '*'): a container's image or ports are never walked.
    const depth = path.length;
    const keys = live.some((p) => p[depth] === '*') ? Object.keys(value) : [...new Set(live.map((p) => p[depth]))].filter((k) => Object.hasOwn(value, k));
    let out: JsonObject | undefined;
    for (const k of keys) {
      const v = value[k];
      const mapped = walk(v, [...path, k], live, fn);
      if (mapped === v) continue;
      out ??= { ...value };
      out[k] = mapped;
    }
    return out ?? value;
  }
  return value;
}

function prefixMatches(path: JsonPath, p: readonly string[]): boolean {
  return path.every((seg, i) => p[i] === '*' || p[i] === String(seg));
}

function digest(salt: string, value: string): string {
  return createHash('sha256').update(salt).update('\0').update(value, 'utf8').digest('hex');
}

// A kind's diff rules with their path patterns parsed once, and the questions the diff asks of them.
import { matchesPattern, pattern, underPattern, type JsonPath, type JsonValue } from '../../core/json.js';
import type { DiffRules, ValueComparison } from '../../core/kind.js';

type Patterns = readonly (readonly string[])[];

export interface CompiledRules {
  /** Filled in by the service: never a diff. */
  isServer(path: JsonPath): boolean;
  /** Never returned (secrets): compared against state only. */
  isWriteOnly(path: JsonPath): boolean;
  isImmutable(path: JsonPath): boolean;
  /** A keyed array whose members cannot be added or removed in place. */
  isImmutableMembership(arrayPath: JsonPath): boolean;
  /** The next write sends this path whole: a live value there the desired spec lacks is removed. */
  isSentWhole(path: JsonPath): boolean;
  /** The key field of a named array at this path, if it is one. */
  keyOf: (arrayPath: JsonPath) => string | undefined;
  /** How values at this path compare, when the service normalises them. */
  comparisonAt(path: JsonPath): ValueComparison | undefined;
  /** The service's default at this path, if it has one. */
  defaultAt(path: JsonPath): JsonValue | undefined;
  /** Keys of the object at this path compare ignoring case. */
  ignoresKeyCase(path: JsonPath): boolean;
}

const cache = new WeakMap<DiffRules, CompiledRules>();

export function compileRules(rules: DiffRules): CompiledRules {
  let c = cache.get(rules);
  if (!c) {
    c = build(rules);
    cache.set(rules, c);
  }
  return c;
}

function build(rules: DiffRules): CompiledRules {
  const list = (texts: readonly string[] | undefined): Patterns => (texts ?? []).map(pattern);
  const server = list(rules.serverPopulated);
  const writeOnly = list(rules.writeOnly);
  const immutable = list(rules.immutable);
  const membership = list(rules.immutableMembership);
  const whole = list(rules.writes.whole);
  const ignoreCaseKeys = list(rules.ignoreCaseKeys);
  const keys = Object.entries(rules.arrayKeys).map(([p, key]) => ({ p: pattern(p), key }));
  const comparisons = Object.entries(rules.compare ?? {}).map(([p, how]) => ({ p: pattern(p), how }));
  const defaults = Object.entries(rules.defaults ?? {}).map(([p, value]) => ({ p: pattern(p), value }));
  const under = (path: JsonPath, ps: Patterns) => ps.some((p) => underPattern(path, p));
  const exact = (path: JsonPath, ps: Patterns) => ps.some((p) => matchesPattern(path, p));
  return {
    isServer: (path) => under(path, server),
    isWriteOnly: (path) => under(path, writeOnly),
    isImmutable: (path) => under(path, immutable),
    isImmutableMembership: (path) => exact(path, membership),
    isSentWhole: (path) => under(path, whole),
    keyOf: (path) => keys.find((k) => matchesPattern(path, k.p))?.key,
    comparisonAt: (path) => comparisons.find((c) => matchesPattern(path, c.p))?.how,
    defaultAt: (path) => defaults.find((d) => matchesPattern(path, d.p))?.value,
    ignoresKeyCase: (path) => exact(path, ignoreCaseKeys),
  };
}

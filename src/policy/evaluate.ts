// Evaluates compiled policies on one subject: which rules fail, with the message and the path
// (into the document) the finding points at.
import type { JsonPath } from '../core/json.js';
import { isObject } from '../core/json.js';
import type { AllSite } from './all-sites.js';
import { evaluationMessage } from './cel.js';
import { celValue, secretTree, type CelValue } from './cel-value.js';
import type { CompiledPolicy, CompiledRule } from './compile-policy.js';
import { prunedDocument, readTree, unionReads, type ReadTree } from './object-reads.js';
import type { Subject } from './subject.js';

export interface Violation {
  readonly policy: CompiledPolicy;
  readonly rule: CompiledRule;
  readonly message: string;
  /** Where in the document it points ([]: the document itself). */
  readonly path: JsonPath;
}

/** validate: only the rules that need no change; plan: every rule. */
export type Phase = 'validate' | 'plan';

type Variables = Record<string, CelValue>;

export function policyMatches(policy: CompiledPolicy, subject: Pick<Subject, 'kind' | 'name'>, stack: string): boolean {
  const { kinds, stacks, names } = policy.match;
  if (kinds && !kinds.includes(subject.kind)) return false;
  if (stacks && !stacks.includes(stack)) return false;
  return !names || names.some((n) => n.test(subject.name));
}

export function evaluatePolicies(policies: readonly CompiledPolicy[], subject: Subject, stack: string, phase: Phase): Violation[] {
  const applicable = policies.flatMap((policy) =>
    policyMatches(policy, subject, stack) ? policy.rules.filter((r) => phase === 'plan' || !r.usesChange).map((rule) => ({ policy, rule })) : []);
  if (applicable.length === 0) return [];
  const document = prunedDocument(subject.document, readsOf(policies, phase));
  const variables: Variables = {
    object: celValue(document, subject.secrets ? [secretTree(['spec'], subject.secrets)] : []),
    stack,
    change: subject.change === null ? null : celValue(subject.change),
  };
  const out: Violation[] = [];
  for (const { policy, rule } of applicable) {
    const failure = failureOf(rule, variables);
    if (failure === undefined) continue;
    const message = failure === false ? messageOf(rule, variables) : failure;
    out.push({ policy, rule, message, path: rule.fieldPath ? pointAt(rule.fieldPath, variables, rule.sites) : [] });
  }
  return out;
}

const readTrees = new WeakMap<readonly CompiledPolicy[], Map<Phase, ReadTree>>();

/**
 * What the phase's rules of all `policies` read, worked out once per set: reading a little more
 * than the matching rules need costs less than working it out for every manifest.
 */
function readsOf(policies: readonly CompiledPolicy[], phase: Phase): ReadTree {
  let byPhase = readTrees.get(policies);
  if (!byPhase) readTrees.set(policies, (byPhase = new Map()));
  let tree = byPhase.get(phase);
  if (!tree) {
    const rules = policies.flatMap((p) => p.rules).filter((r) => phase === 'plan' || !r.usesChange);
    tree = readTree(unionReads(rules.map((r) => r.reads)));
    byPhase.set(phase, tree);
  }
  return tree;
}

/** undefined: the rule holds; false: it does not; a string: it could not be evaluated (it fails then too). */
function failureOf(rule: CompiledRule, variables: Variables): false | string | undefined {
  let result: unknown;
  try {
    result = rule.program.run(variables);
  } catch (err) {
    return `cannot be evaluated: ${evaluationMessage(err)}`;
  }
  if (result === true) return undefined;
  if (result === false) return false;
  return `gives ${typeof result === 'bigint' ? 'an int' : typeof result}, not true or false`;
}

function messageOf(rule: CompiledRule, variables: Variables): string {
  if (rule.messageProgram) {
    try {
      const text: unknown = rule.messageProgram.run(variables);
      if (typeof text === 'string' && text.trim() !== '') return text;
    } catch {
      // A message that cannot be made falls back to the static one, as in Kubernetes.
    }
  }
  return rule.message ?? `failed expression: ${rule.program.source}`;
}

/**
 * The fieldPath made concrete: where it goes into an array without an index, the element an
 * all() over that array fails on (and, where the path ends there, the field its predicate reads).
 */
function pointAt(fieldPath: JsonPath, variables: Variables, sites: readonly AllSite[]): JsonPath {
  const out: Array<string | number> = [];
  let value: CelValue | undefined = variables.object;
  for (let i = 0; i <= fieldPath.length; i++) {
    const seg = fieldPath[i];
    if (Array.isArray(value) && (seg === undefined || typeof seg === 'string')) {
      const found = failingElement(out, value, variables, sites);
      if (!found) return out;
      out.push(found.index);
      value = value[found.index];
      if (seg === undefined) return [...out, ...found.site.field];
    }
    if (seg === undefined) return out;
    out.push(seg);
    value = Array.isArray(value) && typeof seg === 'number' ? value[seg] : isObject(value) ? (value as Record<string, CelValue>)[String(seg)] : undefined;
    // Past what the document holds: the rest as written; locating falls back to what exists.
    if (value === undefined) return [...out, ...fieldPath.slice(i + 1)];
  }
  return out;
}

function failingElement(arrayPath: JsonPath, elements: readonly CelValue[], variables: Variables, sites: readonly AllSite[]): { index: number; site: AllSite } | undefined {
  const site = sites.find((s) => s.arrayPath.length === arrayPath.length && s.arrayPath.every((seg, i) => seg === arrayPath[i]));
  if (!site) return undefined;
  for (let index = 0; index < elements.length; index++) {
    let holds = false;
    try {
      holds = site.predicate.run({ ...variables, [site.element]: elements[index] }) === true;
    } catch {
      // An element the predicate cannot be evaluated on fails it.
    }
    if (!holds) return { index, site };
  }
  return undefined;
}

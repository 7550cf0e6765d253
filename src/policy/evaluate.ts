// Evaluates compiled policies on one subject: which rules fail, with the message and the path
// (into the document) the finding points at.
import type { JsonPath } from '../core/json.js';
import { isObject } from '../core/json.js';
import type { AllSite } from './all-sites.js';
import { COST_LIMIT, evaluationMessage, runMetered } from './cel.js';
import { estimateCost } from './cost-estimate.js';
import { celValue, secretTree, watchReads, type CelValue } from './cel-value.js';
import type { CompiledPolicy, CompiledRule } from './compile-policy.js';
import { prunedDocument, readTree, unionReads, type ReadTree } from './object-reads.js';
import type { Subject, Unresolved } from './subject.js';
import { fieldPath as shownPath } from '../core/field-path.js';

export interface Violation {
  readonly policy: CompiledPolicy;
  readonly rule: CompiledRule;
  readonly message: string;
  /** Where in the document it points ([]: the document itself). */
  readonly path: JsonPath;
  /** Validate could not decide: the rule reads a value only plan knows (written through this placeholder). */
  readonly unchecked?: Unresolved;
  /**
   * What kept the rule from a verdict: `error`, it cannot be evaluated on this resource (a missing
   * key); `rule`, the rule itself is at fault (it gives no boolean, or passes its cost limit), which
   * is said once, at the rule.
   */
  readonly problem?: 'error' | 'rule';
}

/** validate: only the rules that need no change; plan: every rule. */
export type Phase = 'validate' | 'plan';

type Variables = Record<string, CelValue>;

/** The CEL variable `stack` (docs/policies.md): the run's stack name, '' for a run without a stack. */
export function stackVariable(stack: string | undefined): string {
  return stack ?? '';
}

/** `stack`: the run's, unset without one (then only a policy with no `match.stacks` applies). */
export function policyMatches(policy: CompiledPolicy, subject: Pick<Subject, 'kind' | 'name'>, stack: string | undefined): boolean {
  const { kinds, stacks, names } = policy.match;
  if (kinds && !kinds.includes(subject.kind)) return false;
  if (stacks && (stack === undefined || !stacks.includes(stack))) return false;
  return !names || names.some((n) => n.test(subject.name));
}

/**
 * The rules decide on the values as they are (a secret included: a placeholder must not let pass
 * what the plain value fails); what a finding says is made from the masked values, so no secret
 * reaches a message. A rule that reads a value validate cannot know (an unresolved placeholder) has
 * no verdict there: it is an `unchecked` violation, never a silent pass.
 */
export function evaluatePolicies(
  policies: readonly CompiledPolicy[],
  subject: Subject,
  stack: string | undefined,
  phase: Phase,
  broken?: ReadonlySet<CompiledRule>,
): Violation[] {
  const applicable = policies.flatMap((policy) =>
    policyMatches(policy, subject, stack)
      ? policy.rules.filter((r) => (phase === 'plan' || !r.usesChange) && !broken?.has(r)).map((rule) => ({ policy, rule }))
      : [],
  );
  if (applicable.length === 0) return [];
  const document = prunedDocument(subject.document, readsOf(policies, phase));
  const read = new Set<number>();
  const object = celValue(document);
  if (subject.unresolved)
    watchReads(
      object,
      subject.unresolved.map((u) => u.path),
      (i) => read.add(i),
    );
  const variables: Variables = { object, stack: stackVariable(stack), change: subject.change === null ? null : celValue(subject.change) };
  let masked: Variables | undefined;
  const maskedVariables = (): Variables =>
    (masked ??=
      subject.secrets && subject.secrets.length > 0
        ? {
            object: celValue(document, [secretTree(['spec'], subject.secrets)]),
            stack: stackVariable(stack),
            change: ((c) => (c === null ? null : celValue(c)))(subject.maskedChange ? subject.maskedChange() : subject.change),
          }
        : variables);
  const out: Violation[] = [];
  for (const { policy, rule } of applicable) {
    read.clear();
    const outcome = outcomeOf(rule, variables);
    // The first placeholder the rule read (reads are watched only where the subject has some).
    const first = read.values().next();
    const unchecked = first.done ? undefined : subject.unresolved?.[first.value];
    if (unchecked) {
      out.push({
        policy,
        rule,
        message: `not checked until plan: the rule reads ${shownPath(unchecked.path)}, written as ${unchecked.placeholder}, which only plan resolves`,
        path: unchecked.path,
        unchecked,
      });
      continue;
    }
    if (outcome.kind === 'holds') continue;
    if (outcome.kind === 'rule') {
      out.push({ policy, rule, message: outcome.message, path: [], problem: 'rule' });
      continue;
    }
    const message =
      outcome.kind !== 'error'
        ? messageOf(rule, maskedVariables())
        : maskedVariables() === variables
          ? outcome.message
          : maskedFailure(rule, maskedVariables());
    out.push({
      policy,
      rule,
      message,
      path: rule.fieldPath ? pointAt(rule.fieldPath, variables, rule.sites) : [],
      ...(outcome.kind === 'error' ? { problem: 'error' as const } : {}),
    });
  }
  return out;
}

/** Why a rule that cannot be evaluated on the values as they are failed, in words made without them. */
function maskedFailure(rule: CompiledRule, masked: Variables): string {
  const outcome = outcomeOf(rule, masked);
  return outcome.kind === 'error' ? outcome.message : 'cannot be evaluated on the value of a secret (its words are not shown)';
}

const readTrees = new WeakMap<readonly CompiledPolicy[], Map<Phase, ReadTree>>();

/**
 * What the phase's rules of all `policies` read, worked out once per set: reading a little more
 * than the matching rules need costs less than working it out for every manifest.
 */
function readsOf(policies: readonly CompiledPolicy[], phase: Phase): ReadTree {
  let byPhase = readTrees.get(policies);
  if (!byPhase) readTrees.set(policies, (byPhase = new Map<Phase, ReadTree>()));
  let tree = byPhase.get(phase);
  if (!tree) {
    const rules = policies.flatMap((p) => p.rules).filter((r) => phase === 'plan' || !r.usesChange);
    tree = readTree(unionReads(rules.map((r) => r.reads)));
    byPhase.set(phase, tree);
  }
  return tree;
}

type Outcome =
  | { readonly kind: 'holds' | 'fails' }
  /** It cannot be evaluated on this resource. */
  | { readonly kind: 'error'; readonly message: string }
  /** The rule is at fault whatever the resource: no boolean, or past its cost limit. */
  | { readonly kind: 'rule'; readonly message: string };

function outcomeOf(rule: CompiledRule, variables: Variables): Outcome {
  const ran = runMetered(rule.program, variables);
  if ('exceeded' in ran) {
    const estimate = estimateCost(rule.program.ast, variables);
    const figure = estimate > COST_LIMIT ? `costs about ${estimate.toLocaleString('en-US')}, over` : 'costs more than';
    return { kind: 'rule', message: `${figure} the cost limit of ${COST_LIMIT.toLocaleString('en-US')} (stopped)` };
  }
  if ('error' in ran) return { kind: 'error', message: `cannot be evaluated: ${evaluationMessage(ran.error)}` };
  if (ran.value === true) return { kind: 'holds' };
  if (ran.value === false) return { kind: 'fails' };
  const result = ran.value;
  return {
    kind: 'rule',
    message: `gives ${typeof result === 'bigint' ? 'an int' : result === null ? 'null' : Array.isArray(result) ? 'a list' : `a ${typeof result === 'object' ? 'map' : typeof result}`}, not true or false`,
  };
}

function messageOf(rule: CompiledRule, variables: Variables): string {
  if (rule.messageProgram) {
    // A message that cannot be made falls back to the static one, as in Kubernetes.
    const ran = runMetered(rule.messageProgram, variables);
    if ('value' in ran && typeof ran.value === 'string' && ran.value.trim() !== '') return ran.value;
  }
  return rule.message ?? `failed expression: ${rule.program.source}`;
}

/**
 * The fieldPath made concrete: where it goes into an array without an index, the element an
 * all() over that array fails on (and, where the path ends there, the field its predicate reads).
 */
function pointAt(fieldPath: JsonPath, variables: Variables, sites: readonly AllSite[]): JsonPath {
  const out: (string | number)[] = [];
  let value: CelValue | undefined = variables.object;
  for (let i = 0; i <= fieldPath.length; i++) {
    const seg = fieldPath.at(i); // undefined past the last segment (i === fieldPath.length)
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

function failingElement(
  arrayPath: JsonPath,
  elements: readonly CelValue[],
  variables: Variables,
  sites: readonly AllSite[],
): { index: number; site: AllSite } | undefined {
  const site = sites.find((s) => s.arrayPath.length === arrayPath.length && s.arrayPath.every((seg, i) => seg === arrayPath[i]));
  if (!site) return undefined;
  for (let index = 0; index < elements.length; index++) {
    // An element the predicate cannot be evaluated on fails it.
    const ran = runMetered(site.predicate, { ...variables, [site.element]: elements[index] });
    if (!('value' in ran) || ran.value !== true) return { index, site };
  }
  return undefined;
}

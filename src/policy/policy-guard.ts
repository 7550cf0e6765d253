// The policies as the engine's Guard: compiled once per run from the Policy documents, evaluated on
// the manifests in validate (rules that need no change) and on every planned change in plan and apply.
// Evaluation lets the event loop run between resources (a watch keeps its leases meanwhile), and a
// rule at fault whatever the resource (no boolean, past its cost limit) is said once, at its line.
import type { Diagnostic } from '../core/diagnostics.js';
import type { KindCatalog } from '../core/kind-catalog.js';
import { timeSlices } from '../core/time-slices.js';
import type { Guard, GuardContext, PreparedGuard } from '../engine/guard.js';
import type { Manifest } from '../engine/manifest.js';
import type { StepFacts } from '../engine/plan/steps.js';
import { compilePolicies } from './compile-policy.js';
import type { CompiledPolicy, CompiledRule } from './compile-policy.js';
import { evaluatePolicies, policyMatches, type Phase, type Violation } from './evaluate.js';
import { POLICY_KIND } from './policy-document.js';
import { manifestSubject, stepSubject, type Subject } from './subject.js';

export const policyGuard: Guard = {
  prepare(documents, kinds, context) {
    const compiled = compilePolicies(
      documents.filter((d) => d.kind === POLICY_KIND),
      kinds,
      context?.stacks,
    );
    return preparedPolicies(compiled.policies, kinds, compiled.diagnostics);
  },
};

export function preparedPolicies(policies: readonly CompiledPolicy[], kinds: KindCatalog, diagnostics: readonly Diagnostic[] = []): PreparedGuard {
  return {
    diagnostics,
    async checkManifests(manifests: readonly Manifest[], context: GuardContext) {
      if (policies.length === 0) return [];
      const subjects = manifests.flatMap((m) => {
        const kind = kinds.kindNamed(m.kind);
        return kind && policies.some((p) => policyMatches(p, m, context.stack)) ? [() => manifestSubject(m, kind)] : [];
      });
      return checkAll(policies, subjects, context, 'validate');
    },
    async checkChanges(steps: readonly StepFacts[], context: GuardContext) {
      if (policies.length === 0) return [];
      return checkAll(
        policies,
        steps.map((s) => () => stepSubject(s)),
        context,
        'plan',
      );
    },
  };
}

/** Every subject's findings, yielding to the event loop between subjects once a slice of time is spent. */
async function checkAll(policies: readonly CompiledPolicy[], subjects: readonly (() => Subject)[], context: GuardContext, phase: Phase): Promise<Diagnostic[]> {
  const broken = new Set<CompiledRule>();
  const out: Diagnostic[] = [];
  const slice = timeSlices();
  for (const subject of subjects) {
    const turn = slice();
    if (turn) await turn;
    out.push(...findings(policies, subject(), context, phase, broken));
  }
  return out;
}

/**
 * `FILE:LINE:COL: error: policy NAME: MESSAGE` at the rule's fieldPath, or at the document; a rule at
 * fault is an error at its expression (the first time: `broken` remembers it and skips it after).
 */
export function findings(
  policies: readonly CompiledPolicy[],
  subject: Subject,
  context: GuardContext,
  phase: Phase,
  broken = new Set<CompiledRule>(),
): Diagnostic[] {
  return evaluatePolicies(policies, subject, context.stack, phase, broken).map((v) => {
    if (v.problem === 'rule') {
      broken.add(v.rule);
      return ruleFault(v, subject);
    }
    return {
      // Not checked is no verdict either way: said, never counted as passing or failing.
      severity: v.unchecked ? 'warning' : v.policy.severity,
      code: 'policy',
      policy: v.policy.name,
      address: subject.address,
      message: `policy ${v.policy.name}: ${v.message}`,
      ...(subject.locate ? { location: subject.locate(v.path) } : {}),
    };
  });
}

/**
 * A rule at fault as an invalid policy is: an error at its expression that stops the run (plan plans
 * nothing, apply applies nothing), whatever the policy's severity — it cannot tell right from wrong.
 */
function ruleFault(v: Violation, subject: Subject): Diagnostic {
  const path = ['spec', 'rules', v.rule.index, 'expression'];
  return {
    severity: 'error',
    code: 'policy.invalid',
    address: v.policy.address,
    location: v.policy.document.source.locate(path),
    message: `spec.rules[${v.rule.index}].expression: ${v.message} (evaluated on ${subject.address})`,
  };
}

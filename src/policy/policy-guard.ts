// The policies as the engine's Guard: compiled once per run from the Policy documents, evaluated on
// the manifests in validate (rules that need no change) and on every planned change in plan and apply.
import type { Diagnostic } from '../core/diagnostics.js';
import type { KindCatalog } from '../core/kind-catalog.js';
import type { Guard, GuardContext, PreparedGuard } from '../engine/guard.js';
import type { Manifest } from '../engine/manifest.js';
import type { StepFacts } from '../engine/plan/steps.js';
import { compilePolicy, type CompiledPolicy } from './compile-policy.js';
import { evaluatePolicies, policyMatches, type Phase } from './evaluate.js';
import { POLICY_KIND } from './policy-document.js';
import { manifestSubject, stepSubject, type Subject } from './subject.js';

export const policyGuard: Guard = {
  prepare(documents, kinds) {
    const compiled = documents.filter((d) => d.kind === POLICY_KIND).map((d) => compilePolicy(d, kinds));
    return preparedPolicies(compiled.map((c) => c.policy), kinds, compiled.flatMap((c) => c.diagnostics));
  },
};

export function preparedPolicies(policies: readonly CompiledPolicy[], kinds: KindCatalog, diagnostics: readonly Diagnostic[] = []): PreparedGuard {
  return {
    diagnostics,
    checkManifests(manifests: readonly Manifest[], context: GuardContext) {
      if (policies.length === 0) return [];
      return manifests.flatMap((m) => {
        const kind = kinds.kindNamed(m.kind);
        if (!kind || !policies.some((p) => policyMatches(p, m, context.stack))) return [];
        return findings(policies, manifestSubject(m, kind), context, 'validate');
      });
    },
    checkChanges(steps: readonly StepFacts[], context: GuardContext) {
      if (policies.length === 0) return [];
      return steps.flatMap((s) => findings(policies, stepSubject(s), context, 'plan'));
    },
  };
}

/** `FILE:LINE:COL: error: policy NAME: MESSAGE` at the rule's fieldPath, or at the document. */
export function findings(policies: readonly CompiledPolicy[], subject: Subject, context: GuardContext, phase: Phase): Diagnostic[] {
  return evaluatePolicies(policies, subject, context.stack, phase).map((v) => ({
    severity: v.policy.severity,
    code: 'policy',
    policy: v.policy.name,
    address: subject.address,
    message: `policy ${v.policy.name}: ${v.message}`,
    ...(subject.locate ? { location: subject.locate(v.path) } : {}),
  }));
}

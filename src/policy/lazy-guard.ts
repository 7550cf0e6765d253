// The policy guard as the edges hand it in: the policy engine (CEL, the rule compiler) is loaded only
// for manifests that hold Policy documents. Most runs hold none, and a start of moor is mostly the
// code it loads (a validate in a pre-commit hook, every drift run).
import type { Guard, PreparedGuard } from '../engine/guard.js';
import { POLICY_KIND } from './policy-document.js';

/** What policyGuard prepares from no policies: nothing to report, nothing to check. */
const NO_POLICIES: PreparedGuard = {
  diagnostics: [],
  checkManifests: () => Promise.resolve([]),
  checkChanges: () => Promise.resolve([]),
};

export const lazyPolicyGuard: Guard = {
  async prepare(documents, kinds, context) {
    if (!documents.some((d) => d.kind === POLICY_KIND)) return NO_POLICIES;
    const { policyGuard } = await import('./policy-guard.js');
    return policyGuard.prepare(documents, kinds, context);
  },
};

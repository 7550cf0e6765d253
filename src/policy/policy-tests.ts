// `moor policy test`: each Policy's `tests:` cases (an object, optionally a stack and a change, and
// whether the policy should pass or fail it) run against its compiled rules, as `conftest verify`.
import type { SourceLocation } from '../core/diagnostics.js';
import { isObject, type JsonObject } from '../core/json.js';
import type { CompiledPolicy } from './compile-policy.js';
import { evaluatePolicies } from './evaluate.js';

export interface PolicyTestResult {
  readonly policy: string;
  readonly name: string;
  readonly passed: boolean;
  /** Where the case is written. */
  readonly location: SourceLocation;
  /** Why it did not turn out as expected (the failing rules' messages, or that none failed). */
  readonly detail?: string;
  /** A rule could not be evaluated on the case: neither pass nor fail, whatever it expects. */
  readonly error?: boolean;
}

/** Every case of every policy, in the order written. */
export function runPolicyTests(policies: readonly CompiledPolicy[]): PolicyTestResult[] {
  return policies.flatMap((policy) => {
    const cases = Array.isArray(policy.document.spec.tests) ? policy.document.spec.tests : [];
    return cases.filter(isObject).map((c, i) => runCase(policy, c, policy.document.source.locate(['spec', 'tests', i])));
  });
}

function runCase(policy: CompiledPolicy, testCase: JsonObject, location: SourceLocation): PolicyTestResult {
  // The schema asks for a string name, and the tests run only when the policies have no error.
  const name = typeof testCase.name === 'string' ? testCase.name : '';
  const object = isObject(testCase.object) ? testCase.object : {};
  const metadata = isObject(object.metadata) ? object.metadata : {};
  const kind = typeof object.kind === 'string' ? object.kind : '';
  const objectName = typeof metadata.name === 'string' ? metadata.name : '';
  const change = isObject(testCase.change)
    ? { action: 'update', destructive: false, drift: false, fields: [], before: null, after: null, ...testCase.change }
    : null;
  const subject = { address: `${kind}/${objectName}`, kind, name: objectName, document: object, change };
  // Without a change the case is what validate sees: the rules that read change wait for a plan.
  const violations = evaluatePolicies([policy], subject, typeof testCase.stack === 'string' ? testCase.stack : undefined, change ? 'plan' : 'validate');
  // A rule that cannot be evaluated proves nothing: `expect: fail` must not pass on it.
  const broken = violations.filter((v) => v.problem !== undefined);
  if (broken.length > 0) {
    return {
      policy: policy.address,
      name,
      passed: false,
      error: true,
      location,
      detail: `the rules cannot be evaluated on it: ${broken.map((v) => `spec.rules[${v.rule.index}]: ${v.message}`).join('; ')}`,
    };
  }
  const failed = violations.length > 0;
  const expected = testCase.expect === 'fail';
  if (failed === expected) return { policy: policy.address, name, passed: true, location };
  const detail = failed ? `expected it to pass, but: ${violations.map((v) => v.message).join('; ')}` : 'expected it to fail, but every rule held';
  return { policy: policy.address, name, passed: false, location, detail };
}

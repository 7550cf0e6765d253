// The Policy document: guardrails in CEL beside the manifests (what it may say; policy-guard.ts enforces it).
import type { DocumentKind } from '../core/kind.js';
import type { JsonObject } from '../core/json.js';
import { array, enumOf, nonEmpty, object, stringList } from '../core/schema-parts.js';

export const POLICY_KIND = 'Policy';

const describe = (schema: JsonObject, description: string): JsonObject => ({ ...schema, description });

const rule = object(
  {
    expression: describe(nonEmpty, 'CEL; true when the resource complies. Variables: object, stack, change (null in validate).'),
    message: describe(nonEmpty, 'What the diagnostic says when the expression is false.'),
    messageExpression: describe(nonEmpty, 'CEL giving the message (a string), over the same variables; used instead of message.'),
    fieldPath: describe(
      nonEmpty,
      "Where the diagnostic points, e.g. spec.properties.containers (an array: the element that fails an all() over it), spec.tags['team'].",
    ),
  },
  ['expression'],
);

const policyTest = object(
  {
    name: describe(nonEmpty, 'What the case shows, printed by moor policy test.'),
    object: describe({ type: 'object' }, 'A manifest document (apiVersion, kind, metadata, spec) as the rules see it.'),
    stack: describe({ type: 'string' }, 'The stack name the rules see (default: empty).'),
    change: describe(
      { type: 'object' },
      'The planned change the rules see (action, destructive, drift, fields, before, after); absent: validate, change is null.',
    ),
    expect: describe(enumOf(['pass', 'fail']), 'pass: no rule fails; fail: some rule fails.'),
  },
  ['name', 'object', 'expect'],
);

export const policySpecSchema: JsonObject = object(
  {
    match: describe(
      object({
        kinds: describe(stringList, 'Only resources of these kinds (default: every kind).'),
        stacks: describe(stringList, 'Only in these stacks (default: every stack, and runs without one).'),
        names: describe(stringList, 'Only resources with these metadata.name values; * matches any characters.'),
      }),
      'Which resources the rules apply to (default: every resource).',
    ),
    severity: describe(enumOf(['error', 'warning']), 'error (default): plan fails and apply refuses the change; warning: reported only.'),
    rules: describe(array(rule, { minItems: 1 }), 'Every rule must hold for a matching resource.'),
    tests: describe(array(policyTest), 'Cases moor policy test checks the rules against.'),
  },
  ['rules'],
);

export const POLICY_DOCUMENT: DocumentKind = {
  kind: POLICY_KIND,
  description: 'Guardrails in CEL, checked in validate, plan and apply: never planned, applied or kept in state.',
  specSchema: policySpecSchema,
};

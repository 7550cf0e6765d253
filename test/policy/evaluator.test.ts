// The policy evaluator: every variable, severity, match, where findings point, bad expressions, and secrets never visible.
import { describe, expect, test } from 'vitest';
import { positionOf } from '../validate/helpers.js';
import { group, policy, stepOf, validateWithPolicies } from './helpers.js';

const REGISTRY = `  match: {kinds: [ContainerGroup]}
  rules:
    - expression: "object.spec.properties.containers.all(c, c.properties.image.startsWith('registry.example.net/'))"
      message: container images must come from registry.example.net
      fieldPath: spec.properties.containers
`;

const located = (result: Awaited<ReturnType<typeof validateWithPolicies>>) =>
  result.diagnostics.map((d) => `${d.location?.file}:${d.location?.line}:${d.location?.col}: ${d.severity}: ${d.message}`);

describe('policies in validate', () => {
  test('a violating image fails at the image line of the container that breaks the rule', async () => {
    const app = group('web', { side: 'registry.example.net/side:1', web: 'nginx:1.27' });
    const result = await validateWithPolicies({ 'app.yaml': app, 'policy.yaml': policy('registry', REGISTRY) });
    const at = positionOf(app, 'nginx:1.27');
    expect(located(result)).toEqual([`app.yaml:${at.line}:${at.col}: error: policy registry: container images must come from registry.example.net`]);
    expect(result.diagnostics[0]).toMatchObject({ policy: 'registry', code: 'policy', address: 'ContainerGroup/web' });
  });

  test('a compliant manifest has no finding', async () => {
    const result = await validateWithPolicies({ 'app.yaml': group('web', { web: 'registry.example.net/web:1' }), 'policy.yaml': policy('registry', REGISTRY) });
    expect(result.diagnostics).toEqual([]);
  });

  test.each([
    ['an explicit index points at that element', 'spec.properties.containers[1].name', '- name: web', 8],
    ['a key in brackets is a key', "spec['location']", 'westeurope', 0],
    ['a path the document lacks points at the nearest field it has', 'spec.tags.team', 'subscriptionId', 0],
  ])('fieldPath: %s', async (_reason, fieldPath, token, shift) => {
    const app = group('web', { side: 'registry.example.net/side:1', web: 'nginx:1.27' });
    const rules = `  rules:\n    - expression: "false"\n      message: never\n      fieldPath: "${fieldPath}"\n`;
    const result = await validateWithPolicies({ 'app.yaml': app, 'policy.yaml': policy('p', rules) });
    const at = positionOf(app, token);
    expect(result.diagnostics.map((d) => [d.location?.line, d.location?.col])).toEqual([[at.line, at.col + shift]]);
  });

  test('without a fieldPath the finding points at the document', async () => {
    const app = '# a comment\n' + group('web', { web: 'registry.example.net/web:1' });
    const result = await validateWithPolicies({ 'app.yaml': app, 'policy.yaml': policy('p', '  rules:\n    - expression: "has(object.spec.tags)"\n') });
    expect(located(result)).toEqual(['app.yaml:2:1: error: policy p: failed expression: has(object.spec.tags)']);
  });

  test('a warning-severity policy warns; messageExpression words the message', async () => {
    const rules =
      '  severity: warning\n  rules:\n    - expression: "has(object.spec.tags)"\n      messageExpression: "object.metadata.name + \' has no tags in \' + object.spec.location"\n';
    const result = await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'policy.yaml': policy('tags', rules) });
    expect(result.diagnostics.map((d) => [d.severity, d.message])).toEqual([['warning', 'policy tags: web has no tags in westeurope']]);
  });

  test.each([
    ['kinds: another kind', '{kinds: [AuthContext]}', undefined, 0],
    ['kinds: this kind', '{kinds: [ContainerGroup]}', undefined, 1],
    ['names: a glob that matches', "{names: ['we*']}", undefined, 1],
    ['names: a name that does not match', '{names: [api]}', undefined, 0],
    ['stacks: a run without a stack is not prod', '{stacks: [prod]}', undefined, 0],
    ['stacks: the run is for prod', '{stacks: [prod]}', 'prod', 1],
  ])('match %s', async (_reason, match, stack, findings) => {
    const result = await validateWithPolicies(
      { 'app.yaml': group('web', { web: 'x' }), 'policy.yaml': policy('p', `  match: ${match}\n  rules:\n    - expression: "false"\n`) },
      stack,
    );
    expect(result.diagnostics.filter((d) => d.policy === 'p')).toHaveLength(findings);
  });

  test("stack is the stack name, and '' in a run without a stack (one spelling inside, '' at CEL's edge)", async () => {
    const none = '  rules:\n    - expression: "stack == \'\'"\n';
    expect((await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': policy('p', none) })).diagnostics).toEqual([]);
    expect((await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': policy('p', none) }, 'dev')).diagnostics).toHaveLength(1);
    const rules = '  rules:\n    - expression: "stack == \'dev\'"\n';
    expect((await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': policy('p', rules) }, 'dev')).diagnostics).toEqual([]);
    expect((await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': policy('p', rules) }, 'prod')).diagnostics).toHaveLength(1);
  });

  test('YAML integers are CEL ints and decimals doubles', async () => {
    const rules =
      '  rules:\n    - expression: "object.spec.properties.containers.all(c, c.properties.resources.requests.cpu + 1 == 2 && c.properties.resources.requests.memoryInGB * 2.0 == 3.0)"\n';
    expect((await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': policy('p', rules) })).diagnostics).toEqual([]);
  });

  test('an expression that cannot be evaluated on a manifest fails its rule, saying why', async () => {
    const result = await validateWithPolicies({
      'app.yaml': group('web', { web: 'x' }),
      'p.yaml': policy('p', '  rules:\n    - expression: "object.spec.tags.team == \'a\'"\n'),
    });
    expect(result.diagnostics.map((d) => d.message)).toEqual(['policy p: cannot be evaluated: No such key: tags']);
  });

  test('rules that read change wait for plan: validate leaves them out', async () => {
    const rules = '  rules:\n    - expression: "change.action != \'replace\'"\n';
    expect((await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': policy('p', rules) })).diagnostics).toEqual([]);
  });
});

describe('invalid policies are validation errors at the expression line', () => {
  test.each([
    ['a syntax error', 'object.spec.((', 'syntax error: Expected IDENTIFIER, got LPAREN (at character 13 of the expression)'],
    ['a type error', 'stack + 1 == 2', 'type error: no such overload: string + int (at character 1 of the expression)'],
    ['a result that is no boolean', 'size(object.spec)', 'gives int, not bool (at character 1 of the expression)'],
    ['an unknown variable', 'params.x', 'type error: Unknown variable: params (at character 1 of the expression)'],
  ])('%s', async (_reason, expression, message) => {
    const text = policy('bad', `  rules:\n    - expression: "${expression}"\n`);
    const result = await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': text });
    const at = positionOf(text, `"${expression}"`);
    expect(located(result)).toEqual([`p.yaml:${at.line}:${at.col}: error: spec.rules[0].expression: ${message}`]);
    expect(result.diagnostics[0].policy).toBeUndefined(); // a broken policy blocks the run, unlike a finding
  });

  test('an unknown kind in match and an unreadable fieldPath are errors at their lines', async () => {
    const text = policy('bad', '  match: {kinds: [Nope]}\n  rules:\n    - expression: "true"\n      fieldPath: "spec..x"\n');
    const result = await validateWithPolicies({ 'p.yaml': text });
    expect(result.diagnostics.map((d) => [d.location?.line, d.message.split(':')[0]])).toEqual([
      [5, 'spec.match.kinds[0]'],
      [8, 'spec.rules[0].fieldPath'],
    ]);
  });

  test('the schema is checked: a rule without an expression, an unknown severity', async () => {
    const result = await validateWithPolicies({ 'p.yaml': policy('bad', '  severity: fatal\n  rules:\n    - message: hi\n') });
    expect(result.diagnostics.every((d) => d.severity === 'error' && d.address === 'Policy/bad')).toBe(true);
    expect(result.diagnostics).toHaveLength(2);
  });

  test('a Policy takes no dependsOn and is no resource others may depend on', async () => {
    const text = 'apiVersion: moor/v1\nkind: Policy\nmetadata:\n  name: p\n  dependsOn: [ContainerGroup/web]\nspec:\n  rules:\n    - expression: "true"\n';
    const result = await validateWithPolicies({ 'p.yaml': text });
    expect(result.diagnostics.map((d) => d.message)).toEqual(['metadata.dependsOn: a Policy is not applied, so it takes no dependsOn']);
    expect(result.manifests).toEqual([]);
  });
});

describe('secrets: rules decide on the values as they are, no message shows them', () => {
  const env = `
      - name: web
        properties:
          image: x
          resources: {requests: {cpu: 1, memoryInGB: 1.5}}
          environmentVariables:
            - {name: LITERAL, secureValue: hunter2}
            - {name: FROM_FILE, value: "\${file:secret.txt}"}
            - {name: FROM_ENV, value: "\${env:DB_PASSWORD}"}`;
  const app = group('web', {}).replace('    containers:\n', `    containers:${env}\n`);
  const rules = `  rules:
    - expression: "object.spec.properties.containers[0].properties.environmentVariables.all(e, (has(e.secureValue) ? e.secureValue : e.value) == '(sensitive)')"
    - expression: "false"
      messageExpression: "string(object.spec.properties.containers[0].properties.environmentVariables)"
`;

  // Deliberately changed (issue 32.4): rules used to see every secret as '(sensitive)', so a rule
  // failing the plain value passed the same value written through ${file:}. Now they see the value.
  test('validate: a literal secret is seen as written; a rule reading an unresolved ${file:} is not checked until plan, and says so', async () => {
    const result = await validateWithPolicies({ 'app.yaml': app, 'secret.txt': 's3cret', 'p.yaml': policy('p', rules) });
    const findings = result.diagnostics.filter((d) => d.policy === 'p');
    expect(findings.map((d) => d.severity)).toEqual(['error', 'error']);
    for (const f of findings) expect(f.message).not.toMatch(/hunter2|s3cret|file:|DB_PASSWORD\}/);
    const reads = `  rules:
    - expression: "object.spec.properties.containers[0].properties.environmentVariables[0].secureValue == 'hunter2'"
    - expression: "object.spec.properties.containers[0].properties.environmentVariables[1].value != 'Public'"
`;
    const unresolved = await validateWithPolicies({ 'app.yaml': app, 'secret.txt': 's3cret', 'p.yaml': policy('p', reads) });
    const at = positionOf(app, '"${file:secret.txt}"');
    expect(located(unresolved).filter((l) => l.includes('policy p'))).toEqual([
      `app.yaml:${at.line}:${at.col}: warning: policy p: not checked until plan: the rule reads spec.properties.containers[0].properties.environmentVariables[1].value, written as \${file:secret.txt}, which only plan resolves`,
    ]);
  });

  test('plan: a value from ${file:} that the rule fails written plainly fails it too; the message shows no secret', async () => {
    const result = await validateWithPolicies({
      'app.yaml': app,
      'secret.txt': 'Public',
      'p.yaml': policy(
        'p',
        `  rules:
    - expression: "object.spec.properties.containers[0].properties.environmentVariables[1].value != 'Public'"
      messageExpression: "'no ' + object.spec.properties.containers[0].properties.environmentVariables[1].value"
`,
      ),
    });
    const step = stepOf(result, 'ContainerGroup/web', { action: 'update' });
    const resolved = JSON.parse(JSON.stringify(step.desired).replace('${file:secret.txt}', 'Public').replace('${env:DB_PASSWORD}', 'pw-123'));
    const findings = await result.guard!.checkChanges([{ ...step, desired: resolved }], {});
    expect(findings.map((d) => d.message)).toEqual(['policy p: no (sensitive)']);
  });

  test('plan: resolved secrets in the object, before and after read (sensitive) in a message', async () => {
    const result = await validateWithPolicies({ 'app.yaml': app, 'secret.txt': 's3cret', 'p.yaml': policy('p', rules) });
    const step = stepOf(result, 'ContainerGroup/web', { action: 'update' });
    const resolved = JSON.parse(JSON.stringify(step.desired).replace('${file:secret.txt}', 's3cret').replace('${env:DB_PASSWORD}', 'pw-123'));
    const vars = (root: string, i: number, field: string) => `${root}.properties.containers[0].properties.environmentVariables[${i}].${field}`;
    const shown = [
      vars('object.spec', 0, 'secureValue'),
      vars('object.spec', 1, 'value'),
      vars('object.spec', 2, 'value'),
      vars('change.before', 0, 'secureValue'),
      vars('change.before', 1, 'value'),
      vars('change.after', 2, 'value'),
    ];
    const leaky = `  rules:\n    - expression: "false"\n      messageExpression: "${shown.join(" + ' ' + ")}"\n`;
    const withLeaky = await validateWithPolicies({ 'app.yaml': app, 'secret.txt': 's3cret', 'p.yaml': policy('p', leaky) });
    const findings = await withLeaky.guard!.checkChanges(
      [{ ...stepOf(withLeaky, 'ContainerGroup/web', { action: 'update' }, resolved), desired: resolved }],
      {},
    );
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toBe(`policy p: ${Array(6).fill('(sensitive)').join(' ')}`);
    expect(findings[0].message).not.toMatch(/hunter2|s3cret|pw-123/);
  });
});

describe('policies on planned changes', () => {
  const noReplace = `  match: {stacks: [prod]}
  rules:
    - expression: "change == null || change.action != 'replace'"
      message: no replace in prod; do it in a maintenance window
    - expression: "change == null || !change.destructive || object.metadata.name == 'scratch'"
      message: nothing destructive
`;

  test('change: action and destructive, only where match.stacks holds', async () => {
    const result = await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': policy('no-replace', noReplace) }, 'prod');
    const replace = stepOf(result, 'ContainerGroup/web', { action: 'replace', destructive: true });
    expect((await result.guard!.checkChanges([replace], { stack: 'prod' })).map((d) => d.message)).toEqual([
      'policy no-replace: no replace in prod; do it in a maintenance window',
      'policy no-replace: nothing destructive',
    ]);
    expect(await result.guard!.checkChanges([replace], { stack: 'dev' })).toEqual([]);
    expect(await result.guard!.checkChanges([stepOf(result, 'ContainerGroup/web', { action: 'update' })], { stack: 'prod' })).toEqual([]);
  });

  test('change: drift, the changed fields, before (live) and after (desired)', async () => {
    const rules = `  rules:
    - expression: "change.drift && change.fields == ['/location'] && change.before.location == 'northeurope' && change.after.location == 'westeurope'"
`;
    const result = await validateWithPolicies({ 'app.yaml': group('web', { web: 'x' }), 'p.yaml': policy('p', rules) });
    const live = { ...result.manifests[0].spec, location: 'northeurope' };
    const field = {
      path: '/location',
      op: 'replace' as const,
      before: 'northeurope',
      after: 'westeurope',
      cause: 'drift' as const,
      sensitive: false,
      forcesReplace: true,
    };
    const step = stepOf(result, 'ContainerGroup/web', { action: 'replace', drift: true, fields: [field] }, live);
    expect(await result.guard!.checkChanges([step], {})).toEqual([]);
    expect(await result.guard!.checkChanges([{ ...step, change: { ...step.change, drift: false } }], {})).toHaveLength(1);
  });

  test('a delete of what left the manifests: object is the last applied spec, after is null, no location', async () => {
    const rules = "  rules:\n    - expression: \"change.action != 'delete' || (change.after == null && object.spec.resourceGroup == 'rg-old')\"\n";
    const result = await validateWithPolicies({ 'p.yaml': policy('p', rules) });
    const kind = (await import('../../src/cli/catalog.js')).CATALOG.kindNamed('ContainerGroup')!;
    const record = { kind: 'ContainerGroup', name: 'old', id: 'x', lastApplied: { resourceGroup: 'rg-old' }, updatedAt: '2026-01-01T00:00:00Z' };
    const step = {
      kind,
      record,
      change: { address: 'ContainerGroup/old', kind: 'ContainerGroup', action: 'delete' as const, fields: [], patch: [], drift: false, destructive: false },
    };
    expect(await result.guard!.checkChanges([step], {})).toEqual([]);
    const other = { ...step, record: { ...record, lastApplied: { resourceGroup: 'rg-prod' } } };
    const findings = await result.guard!.checkChanges([other], {});
    expect(findings).toEqual([expect.objectContaining({ address: 'ContainerGroup/old', policy: 'p' })]);
    expect(findings[0].location).toBeUndefined();
  });
});

describe('a rule at fault is said once, at its line', () => {
  test('a misspelled field is an error at the expression with did-you-mean, not a finding at each resource', async () => {
    const text = policy(
      'typo',
      '  match: {kinds: [ContainerGroup]}\n  rules:\n    - expression: "object.spec.properties.containers.all(c, c.properties.imagee != \'\')"\n',
    );
    const result = await validateWithPolicies({ 'a.yaml': group('a', { web: 'x' }), 'b.yaml': group('b', { web: 'x' }), 'p.yaml': text });
    const at = positionOf(text, '"object.spec');
    expect(located(result)).toEqual([
      `p.yaml:${at.line}:${at.col}: error: spec.rules[0].expression: reads object.spec.properties.containers[0].properties.imagee, but ContainerGroup has no field imagee there; did you mean image?`,
    ]);
  });

  test('an expression that gives no boolean on the resources is one error at the rule, and stops the run', async () => {
    const text = policy('nobool', '  rules:\n    - expression: "object.spec.location"\n');
    const result = await validateWithPolicies({ 'a.yaml': group('a', { web: 'x' }), 'b.yaml': group('b', { web: 'x' }), 'p.yaml': text });
    const at = positionOf(text, '"object.spec.location"');
    expect(located(result)).toEqual([
      `p.yaml:${at.line}:${at.col}: error: spec.rules[0].expression: gives a string, not true or false (evaluated on ContainerGroup/a)`,
    ]);
    expect(result.diagnostics[0].policy).toBeUndefined();
  });

  test('a rule past its cost limit is refused at its line, naming its cost; five nested map() stop too', async () => {
    const tags = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`t${i}`, 'v']));
    const app = group('web', { web: 'x' }).replace('  location: westeurope', `  location: westeurope\n  tags: ${JSON.stringify(tags)}`);
    const all = "object.spec.tags.all(a, object.spec.tags.all(b, object.spec.tags.all(c, object.spec.tags.all(d, a + b + c + d != ''))))";
    const map = 'object.spec.tags.map(a, object.spec.tags.map(b, object.spec.tags.map(c, object.spec.tags.map(d, object.spec.tags.map(e, a + b))))).size() > 0';
    const text = policy('costly', `  rules:\n    - expression: "${all}"\n    - expression: "${map}"\n`);
    const result = await validateWithPolicies({ 'app.yaml': app, 'p.yaml': text });
    expect(located(result)).toEqual([
      `p.yaml:${positionOf(text, `"${all}"`).line}:${positionOf(text, `"${all}"`).col}: error: spec.rules[0].expression: costs about 1,004,040,403, over the cost limit of 1,000,000 (stopped) (evaluated on ContainerGroup/web)`,
      expect.stringMatching(
        new RegExp(
          `^p\\.yaml:${positionOf(text, `"${map}"`).line}:\\d+: error: spec\\.rules\\[1\\]\\.expression: costs about [\\d,]+, over the cost limit of 1,000,000 \\(stopped\\)`,
        ),
      ),
    ]);
  });
});

// Policies that cannot be got around, end to end over the built CLI and the local cloud: a value
// written through ${file:} is judged as what it is (docs/stacks.md's no-public-ip-in-prod on examples/stacks).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudRequest, moor, ROOT, startCloud, SUB, workdir, type Cloud } from './harness.js';

const WEB = (rg: string) => `/subscriptions/${SUB}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups/web?api-version=2026-07-01`;

/** examples/stacks copied to a folder of its own. */
function example(): string {
  const dir = workdir();
  cpSync(join(ROOT, 'examples/stacks'), dir, { recursive: true });
  return dir;
}

/** 1-based line and column of `token` in `text`. */
function at(text: string, token: string): string {
  const before = text.slice(0, text.indexOf(token)).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

describe('policies end to end: no way around them', () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.stop();
  });

  it("no-public-ip-in-prod holds when prod's overlay writes the IP type through ${file:}: validate says it is not checked, plan fails, apply creates no public group", async () => {
    const dir = example();
    const overlay = join(dir, 'prod/web.yaml');
    const text = readFileSync(overlay, 'utf8').replace(
      / {4}ipAddress: null.*\n/,
      '    ipAddress:\n      type: ${file:iptype}\n      ports:\n        - port: 80\n',
    );
    writeFileSync(overlay, text);
    writeFileSync(join(dir, 'prod/iptype'), 'Public\n');

    const validate = await moor(dir, undefined, ['validate', '--stack', 'prod']);
    expect(validate.stdout + validate.stderr).toContain(
      `prod/web.yaml:${at(text, '${file:iptype}')}: warning: policy no-public-ip-in-prod: not checked until plan: the rule reads spec.properties.ipAddress.type, written as \${file:iptype}, which only plan resolves`,
    );

    const plan = await moor(dir, cloud, ['plan', '--stack', 'prod']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stdout).toContain(
      `prod/web.yaml:${at(text, '${file:iptype}')}: error: policy no-public-ip-in-prod: no public IP in prod; expose it through the gateway`,
    );
    expect(plan.stdout).not.toMatch(/type.*Public/);

    const apply = await moor(dir, cloud, ['apply', '--stack', 'prod', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('refused by policy no-public-ip-in-prod');
    expect((await cloudRequest(cloud, 'GET', WEB('rg-shop-prod'))).status).toBe(404);
    // The same value written plainly is refused alike; a private type passes through ${file:} too.
    writeFileSync(join(dir, 'prod/iptype'), 'Private\n');
    const privatePlan = await moor(dir, cloud, ['plan', '--stack', 'prod']);
    expect(privatePlan.stdout).not.toContain('policy no-public-ip-in-prod');
  }, 180_000);
});

describe('policies end to end: rules that cannot decide, and policies that cannot be weakened', () => {
  it('a rule past its cost limit is refused by validate at its line, naming its cost; five nested map() end the same way', async () => {
    const tags = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`t${i}`, 'v']));
    const dir = example();
    const web = join(dir, 'base/web.yaml');
    writeFileSync(web, readFileSync(web, 'utf8').replace('  tags:\n    team: shop\n', `  tags: ${JSON.stringify({ team: 'shop', ...tags })}\n`));
    const all = "object.spec.tags.all(a, object.spec.tags.all(b, object.spec.tags.all(c, object.spec.tags.all(d, a + b + c + d != ''))))";
    const map = 'object.spec.tags.map(a, object.spec.tags.map(b, object.spec.tags.map(c, object.spec.tags.map(d, object.spec.tags.map(e, a + b))))).size() > 0';
    const text = `apiVersion: moor/v1\nkind: Policy\nmetadata: {name: costly}\nspec:\n  match: {kinds: [ContainerGroup]}\n  rules:\n    - expression: "${all}"\n    - expression: "${map}"\n`;
    writeFileSync(join(dir, 'base/costly.yaml'), text);
    const validate = await moor(dir, undefined, ['validate', '--stack', 'dev']);
    expect(validate.code).toBe(1);
    // 102 tags (base's, dev's and the 100): about 102^4 steps, past the limit of one evaluation.
    expect(validate.stdout).toContain(
      `base/costly.yaml:${at(text, `"${all}"`)}: error: spec.rules[0].expression: costs about 1,086,719,019, over the cost limit of 1,000,000 (stopped) (evaluated on ContainerGroup/web)`,
    );
    expect(validate.stdout).toMatch(
      new RegExp(
        `base/costly\\.yaml:${at(text, `"${map}"`)}: error: spec\\.rules\\[1\\]\\.expression: costs about [\\d,]{14,}, over the cost limit of 1,000,000`,
      ),
    );
  }, 120_000);

  it("a Policy of base's name in prod's overlay is an error at its line, not a silent weakening; a match.stacks typo is an error with did-you-mean", async () => {
    const dir = example();
    const weaker =
      'apiVersion: moor/v1\nkind: Policy\nmetadata:\n  name: no-public-ip-in-prod\nspec:\n  severity: warning\n  rules:\n    - expression: "true"\n';
    writeFileSync(join(dir, 'prod/policies.yaml'), weaker);
    const overlaid = await moor(dir, undefined, ['validate', '--stack', 'prod']);
    expect(overlaid.code).toBe(1);
    expect(overlaid.stdout).toContain(
      `prod/policies.yaml:${at(weaker, 'no-public-ip-in-prod')}: error: duplicate address Policy/no-public-ip-in-prod (first defined at base/policies.yaml:`,
    );
    expect(overlaid.stdout).toContain('a Policy is never overlaid');

    const typo = example();
    const file = join(typo, 'base/policies.yaml');
    const text = readFileSync(file, 'utf8').replace('stacks: [prod]', 'stacks: [production]');
    writeFileSync(file, text);
    const validate = await moor(typo, undefined, ['validate', '--stack', 'dev']);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(
      `base/policies.yaml:${at(text, 'production')}: error: spec.match.stacks[0]: no stack production in moor.config.yaml, so the policy would match nothing there (allowed: dev, prod)`,
    );
  }, 120_000);

  it('a misspelled field is one error at the rule; moor policy test counts a case the rule cannot evaluate as an ERROR, never a PASS', async () => {
    const dir = example();
    const file = join(dir, 'base/policies.yaml');
    const original = readFileSync(file, 'utf8');
    const typo = original.replace("object.spec.properties.ipAddress.type != 'Public'", "object.spec.properties.ipAddress.typ != 'Public'");
    writeFileSync(file, typo);
    const validate = await moor(dir, undefined, ['validate', '--stack', 'prod']);
    expect(validate.code).toBe(1);
    const lines = validate.stdout.split('\n').filter((l) => l.includes('error'));
    expect(lines).toEqual([
      expect.stringContaining(
        `base/policies.yaml:${at(typo, '"!has(object.spec.properties.ipAddress)')}: error: spec.rules[0].expression: reads object.spec.properties.ipAddress.typ, but ContainerGroup has no field typ there; did you mean type?`,
      ),
    ]);

    // A rule that gives no boolean: its `expect: fail` case is an error, and the run fails.
    writeFileSync(
      file,
      original.replace(
        '"!has(object.spec.properties.ipAddress) || object.spec.properties.ipAddress.type != \'Public\'"',
        '"object.spec.properties.ipAddress.type"',
      ),
    );
    const tested = await moor(dir, undefined, ['policy', 'test', '--stack', 'prod']);
    expect(tested.code).toBe(1);
    expect(tested.stdout).toContain('ERROR  Policy/no-public-ip-in-prod: a public IP in prod fails');
    expect(tested.stdout).toContain('gives a string, not true or false');
    expect(tested.stdout).not.toContain('PASS  Policy/no-public-ip-in-prod: a public IP in prod fails');
  }, 120_000);
});

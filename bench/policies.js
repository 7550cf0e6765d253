// Benchmark: what 10 policy rules add to validating 10,000 container-group manifests (the
// manifests of validate.js). Budget: at most 0.5 s more than validating without policies.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeManifests } from './validate.js';

const BUDGET_MS = 500;
const ROUNDS = 3;

const RULES = [
  ["object.spec.properties.containers.all(c, c.properties.image.startsWith('nginx:'))", 'spec.properties.containers'],
  ["object.spec.location in ['westeurope', 'northeurope']", 'spec.location'],
  ["has(object.spec.tags) && 'team' in object.spec.tags", 'spec.tags'],
  ['size(object.spec.properties.containers) <= 5', undefined],
  ['object.spec.properties.containers.all(c, c.properties.resources.requests.cpu <= 4)', 'spec.properties.containers'],
  ["stack != 'prod' || object.spec.properties.ipAddress.type != 'Public'", 'spec.properties.ipAddress.type'],
  ["object.metadata.name.matches('^[a-z][a-z0-9-]*$')", 'metadata.name'],
  ["object.spec.resourceGroup.startsWith('rg-')", 'spec.resourceGroup'],
  [
    "object.spec.properties.containers.all(c, !has(c.properties.environmentVariables) || c.properties.environmentVariables.all(e, !has(e.secureValue) || e.secureValue == '(sensitive)'))",
    undefined,
  ],
  ["change == null || change.action != 'replace'", undefined],
];

function policies() {
  // Three Policy documents, as a team would split them.
  const groups = [RULES.slice(0, 4), RULES.slice(4, 7), RULES.slice(7)];
  return groups
    .map(
      (rules, i) => `apiVersion: moor/v1
kind: Policy
metadata: {name: bench-${i}}
spec:
  match: {kinds: [ContainerGroup]}
  rules:
${rules.map(([expression, fieldPath]) => `    - expression: ${JSON.stringify(expression)}\n      message: rule ${JSON.stringify(expression.slice(0, 30))} fails${fieldPath ? `\n      fieldPath: ${fieldPath}` : ''}`).join('\n')}
`,
    )
    .join('---\n');
}

/**
 * Runs the benchmark: validates once without policies, then times what policies add to that run —
 * compiling the Policy documents and evaluating every rule that needs no change on every manifest —
 * once cold (a CLI run: CEL's warm-up included) and again warm. Returns milliseconds.
 */
export async function run() {
  const dist = (p) => new URL(`../dist/${p}`, import.meta.url).href;
  const { loadAndValidate } = await import(dist('engine/validate/index.js'));
  const { CATALOG } = await import(dist('cli/catalog.js'));
  const { policyGuard } = await import(dist('policy/policy-guard.js'));
  const dir = mkdtempSync(join(tmpdir(), 'moor-bench-policies-'));
  try {
    writeManifests(dir);
    writeFileSync(join(dir, 'policies.yaml'), policies());
    const start = process.hrtime.bigint();
    const loaded = await loadAndValidate([dir], CATALOG, { cwd: dir });
    const validateMs = Number(process.hrtime.bigint() - start) / 1e6;
    const context = { stack: 'dev' };
    const added = [];
    const addedCpu = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t = process.hrtime.bigint();
      const cpu = process.cpuUsage();
      const guard = policyGuard.prepare(loaded.documents, CATALOG);
      const findings = [...guard.diagnostics, ...guard.checkManifests(loaded.manifests, context)];
      added.push(Number(process.hrtime.bigint() - t) / 1e6);
      const used = process.cpuUsage(cpu);
      addedCpu.push((used.user + used.system) / 1e3);
      if (findings.length > 0) throw new Error(`bench manifests should pass the policies, got ${findings.length} findings, first: ${findings[0].message}`);
    }
    return {
      name: 'policies',
      manifests: loaded.manifests.length,
      rules: RULES.length,
      validateMs: Math.round(validateMs),
      addedMs: Math.round(added[0]),
      warmAddedMs: Math.round(Math.min(...added.slice(1))),
      // CPU time of the same cold round: what a shared machine's load does not inflate.
      addedCpuMs: Math.round(addedCpu[0]),
      budgetMs: BUDGET_MS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const r = await run();
  const verdict = r.addedMs <= r.budgetMs ? 'within' : 'OVER';
  process.stdout.write(
    `policies: ${r.rules} rules over ${r.manifests} manifests add ${(r.addedMs / 1000).toFixed(2)} s to validate's ${(r.validateMs / 1000).toFixed(2)} s (warm: ${(r.warmAddedMs / 1000).toFixed(2)} s; CPU ${(r.addedCpuMs / 1000).toFixed(2)} s), ${verdict} the ${(r.budgetMs / 1000).toFixed(1)} s budget\n`,
  );
}

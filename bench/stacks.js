// Benchmark: what stacks and overlays cost validate. 10,000 container-group manifests validated as
// one stack (one folder, its values from ${var:}) against the same 10,000 across two stacks, each a
// base of 5,000 with an overlay patching every one of them (other image tag, cpu, an environment
// variable merged by name): the two stacks together must stay within 1.5x of the one stack's time.
// Both run in one process, as `moor validate --all-stacks` runs them; CPU time is reported beside
// wall time, which a shared machine's load inflates.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const TOTAL = 10_000;
const PER_FILE = 100;
const LIMIT = 1.5;
const ROUNDS = 3;

function manifest(i) {
  return `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: group-${i}
spec:
  subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11
  resourceGroup: \${var:resourceGroup}
  location: westeurope
  tags: {team: bench, index: "${i}"}
  properties:
    osType: Linux
    containers:
      - name: app
        properties:
          image: nginx:\${var:imageTag}
          ports: [{port: 80, protocol: TCP}]
          resources: {requests: {cpu: 0.5, memoryInGB: 1}}
          environmentVariables:
            - {name: INDEX, value: "${i}"}
            - {name: MODE, value: base}
    ipAddress: {type: Public, ports: [{port: 80, protocol: TCP}]}
`;
}

function overlay(i, stack) {
  return `apiVersion: moor/v1
kind: ContainerGroup
metadata: {name: group-${i}}
spec:
  properties:
    containers:
      - name: app
        properties:
          resources: {requests: {cpu: ${stack === 'prod' ? 1 : 0.25}}}
          environmentVariables:
            - {name: MODE, value: ${stack}}
`;
}

function writeFiles(dir, count, doc) {
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f * PER_FILE < count; f++) {
    const docs = [];
    for (let d = 0; d < PER_FILE && f * PER_FILE + d < count; d++) docs.push(doc(f * PER_FILE + d));
    writeFileSync(join(dir, `groups-${String(f).padStart(3, '0')}.yaml`), docs.join('---\n'));
  }
}

export function writeTree(dir) {
  writeFiles(join(dir, 'all'), TOTAL, manifest);
  writeFiles(join(dir, 'base'), TOTAL / 2, manifest);
  writeFiles(join(dir, 'dev'), TOTAL / 2, (i) => overlay(i, 'dev'));
  writeFiles(join(dir, 'prod'), TOTAL / 2, (i) => overlay(i, 'prod'));
  const vars = (rg, tag) => `    vars: {resourceGroup: ${rg}, imageTag: "${tag}"}\n`;
  writeFileSync(
    join(dir, 'moor.config.yaml'),
    [
      'stacks:',
      '  one:\n    paths: [all]\n' + vars('rg-one', '1.27'),
      '  dev:\n    paths: [base, dev]\n' + vars('rg-dev', '1.27'),
      '  prod:\n    paths: [base, prod]\n' + vars('rg-prod', '1.26'),
    ].join('\n'),
  );
}

/** Validates the stacks in turn as validate does; returns wall and CPU ms and the manifests validated. */
async function validateStacks(dir, stacks, engine) {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let manifests = 0;
  for (const stack of stacks) {
    const config = engine.loadConfig(undefined, dir, {}, stack);
    const result = await engine.loadRunManifests(config, [], engine.CATALOG, dir, { guard: engine.policyGuard, context: { stack } });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new Error(`bench stack ${stack} should be valid, got ${errors.length} errors, first: ${errors[0].message}`);
    manifests += result.manifests.length;
  }
  const used = process.cpuUsage(cpu);
  return { wallMs: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: (used.user + used.system) / 1e3, manifests };
}

export async function run() {
  const dist = (p) => new URL(`../dist/${p}`, import.meta.url).href;
  const engine = {
    ...(await import(dist('engine/config.js'))),
    ...(await import(dist('engine/run-manifests.js'))),
    ...(await import(dist('cli/catalog.js'))),
    ...(await import(dist('policy/policy-guard.js'))),
  };
  const dir = mkdtempSync(join(tmpdir(), 'moor-bench-stacks-'));
  const cwd = process.cwd();
  try {
    writeTree(dir);
    // A stack's paths are shown from the folder moor runs in, as the CLI shows them.
    process.chdir(dir);
    // Warm-up (module loading, compiled schemas), then the best of a few rounds of each, alternating.
    await validateStacks(dir, ['one'], engine);
    const one = [];
    const two = [];
    for (let i = 0; i < ROUNDS; i++) {
      one.push(await validateStacks(dir, ['one'], engine));
      two.push(await validateStacks(dir, ['dev', 'prod'], engine));
    }
    const best = (runs, key) => Math.min(...runs.map((r) => r[key]));
    const r = {
      name: 'stacks',
      manifests: two[0].manifests,
      oneStackMs: Math.round(best(one, 'wallMs')),
      twoStacksMs: Math.round(best(two, 'wallMs')),
      oneStackCpuMs: Math.round(best(one, 'cpuMs')),
      twoStacksCpuMs: Math.round(best(two, 'cpuMs')),
      limit: LIMIT,
    };
    return { ...r, ratio: r.twoStacksMs / r.oneStackMs, cpuRatio: r.twoStacksCpuMs / r.oneStackCpuMs };
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const r = await run();
  const verdict = r.cpuRatio <= r.limit ? 'within' : 'OVER';
  process.stdout.write(
    `stacks: validate of ${r.manifests} manifests across two stacks with overlays ${(r.twoStacksMs / 1000).toFixed(2)} s ` +
      `(CPU ${(r.twoStacksCpuMs / 1000).toFixed(2)} s) vs one stack ${(r.oneStackMs / 1000).toFixed(2)} s (CPU ${(r.oneStackCpuMs / 1000).toFixed(2)} s): ` +
      `${r.ratio.toFixed(2)}x wall, ${r.cpuRatio.toFixed(2)}x CPU, ${verdict} ${r.limit}x\n`,
  );
}

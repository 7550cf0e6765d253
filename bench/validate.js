// Benchmark: load and validate 10,000 container-group manifests (100 files x 100 documents) from dist/.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const FILES = 100;
const PER_FILE = 100;

function manifest(i) {
  return `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: group-${i}
  dependsOn: [${i > 0 ? `ContainerGroup/group-${i - 1}` : ''}]
spec:
  subscriptionId: 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11
  resourceGroup: rg-bench-${i % 10}
  location: westeurope
  tags: {team: bench, index: "${i}"}
  properties:
    osType: Linux
    restartPolicy: Always
    containers:
      - name: app
        properties:
          image: nginx:1.27
          ports: [{port: 80, protocol: TCP}]
          resources: {requests: {cpu: 0.5, memoryInGB: 1}}
          environmentVariables:
            - {name: INDEX, value: "${i}"}
            - {name: SECRET, secureValue: "\${env:BENCH_SECRET}"}
          volumeMounts: [{name: data, mountPath: /data}]
    ipAddress: {type: Public, ports: [{port: 80, protocol: TCP}]}
    volumes:
      - {name: data, emptyDir: {}}
`;
}

export function writeManifests(dir) {
  for (let f = 0; f < FILES; f++) {
    const docs = [];
    for (let d = 0; d < PER_FILE; d++) docs.push(manifest(f * PER_FILE + d));
    writeFileSync(join(dir, `groups-${String(f).padStart(3, '0')}.yaml`), docs.join('---\n'));
  }
}

/** Runs the benchmark; returns wall time (ms), peak resident memory (MB) and what was validated. */
export async function run() {
  const { loadAndValidate } = await import(new URL('../dist/engine/validate/index.js', import.meta.url).href);
  const { BUILT_IN_KINDS } = await import(new URL('../dist/resources/registry.js', import.meta.url).href);
  const dir = mkdtempSync(join(tmpdir(), 'moor-bench-validate-'));
  try {
    writeManifests(dir);
    const start = process.hrtime.bigint();
    const result = await loadAndValidate([dir], BUILT_IN_KINDS, { cwd: dir });
    const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new Error(`bench manifests should be valid, got ${errors.length} errors, first: ${errors[0].message}`);
    return {
      name: 'validate',
      manifests: result.manifests.length,
      files: result.files,
      wallMs: Math.round(wallMs),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const r = await run();
  process.stdout.write(`validate: ${r.manifests} manifests in ${r.files} files: ${(r.wallMs / 1000).toFixed(2)} s wall, peak RSS ${r.peakRssMB} MB\n`);
}

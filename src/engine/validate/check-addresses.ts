// Rules across manifests: unique addresses, dependsOn and `${ref:}` targets exist, no cycles.
import type { Diagnostic } from '../../core/diagnostics.js';
import { findCycle, type DependencyGraph } from '../graph.js';
import type { Manifest } from '../manifest.js';
import { refTargets } from './ref-targets.js';
import { fieldPath } from '../../core/field-path.js';

export function checkAddresses(manifests: readonly Manifest[], graph: DependencyGraph): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, Manifest>();
  for (const m of manifests) {
    const earlier = first.get(m.address);
    if (earlier) {
      const at = earlier.source.locate(['metadata', 'name']);
      out.push({
        severity: 'error',
        code: 'address.duplicate',
        address: m.address,
        location: m.source.locate(['metadata', 'name']),
        message: `duplicate address ${m.address} (first defined at ${at.file}:${at.line}:${at.col})`,
      });
    } else {
      first.set(m.address, m);
    }
  }
  for (const m of manifests) out.push(...danglingTargets(m, first));
  const cycle = findCycle(graph);
  if (cycle) {
    const m = first.get(cycle[0]) as Manifest;
    out.push({
      severity: 'error',
      code: 'address.cycle',
      address: m.address,
      location: edgeLocation(m, cycle[1]),
      message: `dependency cycle: ${cycle.join(' -> ')}`,
    });
  }
  return out;
}

function danglingTargets(m: Manifest, known: ReadonlyMap<string, Manifest>): Diagnostic[] {
  const out: Diagnostic[] = [];
  m.dependsOn.forEach((target, i) => {
    if (!known.has(target)) {
      out.push({
        severity: 'error',
        code: 'address.dependsOn',
        address: m.address,
        location: m.source.locate(['metadata', 'dependsOn', i]),
        message: `metadata.dependsOn[${i}]: no manifest defines ${target}`,
      });
    }
  });
  for (const r of refTargets(m.spec)) {
    if (!known.has(r.address)) {
      const path = ['spec', ...r.path];
      out.push({
        severity: 'error',
        code: 'address.ref',
        address: m.address,
        location: m.source.locate(path),
        message: `${fieldPath(path)}: \${ref:${r.address}} names no manifest`,
      });
    }
  }
  return out;
}

/** Where `m` says it needs `target`: its dependsOn entry or the `${ref:}` value. */
function edgeLocation(m: Manifest, target: string) {
  const i = m.dependsOn.indexOf(target);
  if (i >= 0) return m.source.locate(['metadata', 'dependsOn', i]);
  const ref = refTargets(m.spec).find((r) => r.address === target);
  return m.source.locate(ref ? ['spec', ...ref.path] : ['metadata', 'name']);
}

// The report of a discover run: text for people (what was written, left alone, told apart, hidden,
// not written, imported) and one JSON document for programs. Never a secret value: discover never has one.
import { formatDiagnostic } from '../core/diagnostics.js';
import { jsonText } from '../core/foreign-text.js';
import type { DiscoverReport } from './discover.js';

export function renderDiscoverText(report: DiscoverReport, options: { import: boolean; out: string }): string {
  const lines: string[] = [];
  const written = report.resources.filter((r) => r.status === 'written');
  const existing = report.resources.filter((r) => r.status === 'existing');
  const byKind = new Map<string, number>();
  for (const r of report.resources) byKind.set(r.address.split('/')[0], (byKind.get(r.address.split('/')[0]) ?? 0) + 1);
  const kinds = [...byKind].map(([k, n]) => `${n} ${k}`).join(', ');
  lines.push(`Discovered ${report.resources.length} live resource${report.resources.length === 1 ? '' : 's'}${kinds ? `: ${kinds}` : ''}.`);
  if (written.length > 0) {
    lines.push(`Wrote ${written.length} manifest${written.length === 1 ? '' : 's'} in ${report.files.length} file${report.files.length === 1 ? '' : 's'}:`);
    for (const r of written) lines.push(`  + ${r.address}  ${r.file}${r.imported ? '  (imported)' : ''}`);
  }
  if (existing.length > 0) {
    lines.push(`Left alone (${existing.length}): a manifest in ${options.out} describes each already; its file is not changed:`);
    for (const r of existing) lines.push(`  = ${r.address}  ${r.file}${r.imported ? '  (imported)' : ''}`);
  }
  for (const c of report.clashes) {
    lines.push(
      `Told apart: ${c.addresses.length > 1 ? `${c.addresses.length} live resources are` : 'a live resource is'} named "${c.name}": ${c.addresses.map((a) => `${a.address} (${a.by})`).join(', ')}`,
    );
  }
  if (report.secrets.length > 0) {
    lines.push(
      `Hidden secrets (${report.secrets.length}): the services never return them, so each is an \${env:NAME} placeholder listed in ${options.out}/.env.example:`,
    );
    lines.push(`  ${report.secrets.join(', ')}`);
    lines.push('  Plan leaves each alone until you set it (state records it as adopted, value unknown); set it before changing the resource that uses it.');
  }
  if (report.unwritten.length > 0) {
    lines.push(`Not written (${report.unwritten.length}):`);
    for (const u of report.unwritten) lines.push(`  ${u.address}: ${u.path}: ${u.reason}`);
  }
  if (report.passedOver.length > 0) {
    lines.push(`Not adopted (${report.passedOver.length}): moor does not manage them:`);
    for (const p of report.passedOver) lines.push(`  ${p.what}: ${p.reason}`);
  }
  for (const d of report.diagnostics) lines.push(formatDiagnostic(d));
  for (const n of report.notImported) lines.push(`Not imported: ${n.address}: ${n.message}`);
  if (options.import) {
    const imported = report.resources.filter((r) => r.imported).length;
    lines.push(`Imported ${imported} resource${imported === 1 ? '' : 's'} into state. 'moor plan ${options.out}' compares against them.`);
  } else if (written.length > 0) {
    lines.push(`Nothing was recorded in state: run again with --import to adopt them, so 'moor plan ${options.out}' is empty.`);
  }
  return lines.join('\n') + '\n';
}

export function renderDiscoverJson(report: DiscoverReport): string {
  return (
    jsonText(
      {
        format: 'moor-discover/1',
        resources: report.resources,
        files: report.files,
        secrets: report.secrets,
        unwritten: report.unwritten,
        clashes: report.clashes,
        notImported: report.notImported,
        passedOver: report.passedOver,
        diagnostics: report.diagnostics.map((d) => ({
          file: d.location?.file ?? null,
          line: d.location?.line ?? null,
          col: d.location?.col ?? null,
          severity: d.severity,
          message: d.message,
        })),
      },
      2,
    ) + '\n'
  );
}

// Notifications: the markdown text of a run report (the message text, and the attached full report when long).
import type { RunReport } from './run-report.js';

/** Markdown special characters outside code spans. */
function escape(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1');
}

/** A code span cannot hold a backtick; a look-alike keeps the text readable. */
function code(text: string): string {
  return '`' + text.replace(/`/g, 'ʼ') + '`';
}

function header(r: RunReport): string[] {
  const stack = r.stack.stack === undefined ? 'no stack' : `stack ${code(r.stack.stack)}`;
  return [`**${escape(r.title)}** (${stack})`, '', escape(r.summaryLine)];
}

/** The whole report: header, every entry with its fields, every failure. */
export function reportMarkdown(r: RunReport): string {
  const lines = header(r);
  if (r.entries.length > 0) {
    lines.push('');
    for (const e of r.entries) {
      lines.push(`- ${code(e.glyph.trim() || '·')} **${escape(e.address)}** ${escape(e.action)}`);
      for (const d of e.details) lines.push(`  - ${code(d)}`);
    }
  }
  lines.push(...failureLines(r));
  return lines.join('\n') + '\n';
}

/** Header, summary and failures only, with a link to the full report (for a report too long for one message). */
export function shortMarkdown(r: RunReport, fullReport: { readonly name: string; readonly url: string }): string {
  const lines = header(r);
  lines.push(
    '',
    `${r.entries.length} ${r.entries.length === 1 ? 'change' : 'changes'}; the full report is attached: [${escape(fullReport.name)}](${fullReport.url})`,
  );
  lines.push(...failureLines(r));
  return lines.join('\n') + '\n';
}

function failureLines(r: RunReport): string[] {
  if (r.failures.length === 0) return [];
  return ['', '**Failures**', ...r.failures.map((f) => `- ${escape(f)}`)];
}

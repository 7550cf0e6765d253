// Notifications: the Adaptive Card (version 1.5) of a run report: title, summary, a FactSet of changes, failures.
import type { JsonObject } from '../core/json.js';
import type { RunReport } from './run-report.js';
import { stackLabel } from './stack-identity.js';

export const CARD_SCHEMA = 'http://adaptivecards.io/schemas/adaptive-card.json';
export const CARD_VERSION = '1.5';

const STATUS_COLOR: Readonly<Record<RunReport['status'], string>> = { ok: 'Good', changes: 'Warning', failed: 'Attention' };

function textBlock(text: string, extra: JsonObject = {}): JsonObject {
  return { type: 'TextBlock', text, wrap: true, ...extra };
}

/**
 * The card; with `fullReport` (a report too long for one message) the FactSet is left out and
 * the card links to the attached report instead.
 */
export function adaptiveCard(r: RunReport, fullReport?: { readonly name: string; readonly url: string }): JsonObject {
  const body: JsonObject[] = [textBlock(r.title, { weight: 'Bolder', size: 'Medium' }), textBlock(r.summaryLine, { color: STATUS_COLOR[r.status] })];
  if (fullReport) {
    body.push(textBlock(`${r.entries.length} changes; the full report is attached (${fullReport.name}).`, { isSubtle: true }));
  } else if (r.entries.length > 0) {
    body.push({
      type: 'FactSet',
      facts: r.entries.map((e) => ({ title: `${e.glyph.trim() || '·'} ${e.address}`, value: [e.action, ...e.details].join('\n') })),
    });
  }
  if (r.failures.length > 0) {
    body.push(textBlock('Failures', { weight: 'Bolder', color: 'Attention', spacing: 'Medium' }));
    for (const f of r.failures) body.push(textBlock(f, { color: 'Attention' }));
  }
  body.push(textBlock(stackLabel(r.stack), { isSubtle: true, size: 'Small' }));
  const card: JsonObject = { type: 'AdaptiveCard', $schema: CARD_SCHEMA, version: CARD_VERSION, body };
  if (fullReport) card.actions = [{ type: 'Action.OpenUrl', title: 'Full report', url: fullReport.url }];
  return card;
}

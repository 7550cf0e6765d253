// What drift --accept prints: a unified diff per file it changed (or would), then one line saying
// what it wrote; each drifted value it could not write goes to stderr with why. Exit 1 if any.
import { createTwoFilesPatch } from 'diff';
import type { AcceptResult } from '../engine/accept/accept-drift.js';
import type { IoHost } from './io-host.js';
import { lineText } from '../core/foreign-text.js';

export function renderAccept(io: IoHost, result: AcceptResult, options: { dryRun: boolean; stack?: string }): number {
  for (const f of result.files)
    io.stdout.write(createTwoFilesPatch(`a/${f.shown}`, `b/${f.shown}`, f.before, f.after, '', '', { context: 3 }).replace(/^=+\n/, ''));
  for (const r of result.refused) io.stderr.write(`error: not accepted: ${lineText(r)}\n`);
  const named = options.stack === undefined ? '' : `stack ${lineText(options.stack)}: `;
  const fields = result.accepted.length;
  const resources = new Set(result.accepted.map((a) => a.address)).size;
  const files = result.files.length;
  const what = `${fields} drifted ${fields === 1 ? 'field' : 'fields'} of ${resources} ${resources === 1 ? 'resource' : 'resources'}`;
  const into = `${files} ${files === 1 ? 'file' : 'files'}${files > 0 ? ` (${result.files.map((f) => f.shown).join(', ')})` : ''}`;
  if (fields === 0 && result.refused.length === 0) io.stdout.write(`${named}Nothing to accept: no drift.\n`);
  else if (options.dryRun) io.stdout.write(`${named}Would accept ${what} into ${into}; --dry-run wrote nothing.\n`);
  else io.stdout.write(`${named}Accepted ${what} into ${into}. Review and commit them; plan is now empty for what was accepted.\n`);
  return result.refused.length > 0 ? 1 : 0;
}

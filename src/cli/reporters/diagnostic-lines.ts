// The machine formats (json, jsonl) carry a plan's diagnostics on stdout; a pipeline log still wants them on stderr.
import { formatDiagnostic } from '../../core/diagnostics.js';
import type { RunEventOf } from '../../engine/operations/run-events.js';
import type { IoHost } from '../io-host.js';

/** The plan's diagnostics on stderr, one line each. */
export function diagnosticLines(io: IoHost, e: RunEventOf<'plan_ready'>): void {
  for (const d of e.plan.diagnostics) io.stderr.write(formatDiagnostic(d) + '\n');
}

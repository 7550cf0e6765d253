// A destructive change to a protected resource is refused before anything is sent, whether the
// planner chose it or --replace forced it: one check, one wording. A protected job's destructive
// run (a refresh that overwrites its target) runs only when apply names it (--allow-destructive).
import type { Diagnostic } from '../../core/diagnostics.js';
import type { PlannedStep } from './steps.js';

/** The flag that lets a protected job's destructive run go ahead, naming its address. */
export const ALLOW_DESTRUCTIVE_FLAG = '--allow-destructive';

/** Code of the refusal of a protected destructive run: a plan's refusal, not something drift finds. */
export const PROTECTED_RUN = 'protect.destructive-run';

/** The error for a step that would replace or delete a protected resource, or run a protected destructive job not named in `allowDestructive`; else undefined. */
export function protectedChangeError(s: PlannedStep, allowDestructive: readonly string[] = []): Diagnostic | undefined {
  if (!s.manifest?.protect) return undefined;
  const { address, action, reason } = s.change;
  const at = { severity: 'error' as const, address, location: s.manifest.source.locate(['metadata', 'protect']) };
  if (action === 'run' && s.change.destructive && !allowDestructive.includes(address)) {
    return {
      ...at,
      code: PROTECTED_RUN,
      message: `${address} is protected (metadata.protect): its destructive run goes ahead only when apply names it, ${ALLOW_DESTRUCTIVE_FLAG} ${address}${reason ? ` (${reason})` : ''}`,
    };
  }
  if (action !== 'replace' && action !== 'delete') return undefined;
  return { ...at, message: `${address} is protected (metadata.protect) and would be ${action === 'replace' ? 'replaced' : 'deleted'}: ${reason ?? ''}`.trim() };
}

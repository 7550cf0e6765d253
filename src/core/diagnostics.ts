// Diagnostics: errors and warnings with a source location or an address, gathered, never thrown one by one.
import { lineText } from './foreign-text.js';
export type Severity = 'error' | 'warning';

export interface SourceLocation {
  readonly file: string;
  /** 1-based */
  readonly line: number;
  /** 1-based */
  readonly col: number;
}

export interface Diagnostic {
  readonly severity: Severity;
  readonly message: string;
  /** Where in a manifest, when the problem is in one. */
  readonly location?: SourceLocation;
  /** The resource address (Kind/name), when known. */
  readonly address?: string;
  /** A stable code, e.g. a rule name or a service error code. */
  readonly code?: string;
  /** The location is the resource's manifest, not the problem's line: printed, the address still leads the message. */
  readonly atManifest?: boolean;
  /** The name of the policy that found it (a guardrail's finding, not a kind's rule). */
  readonly policy?: string;
}

/**
 * `FILE:LINE:COL: error: MESSAGE`, or `error: [ADDRESS] MESSAGE` without a location; always one line,
 * as a message may quote a manifest's or a service's text (lineText).
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.location ? `${d.location.file}:${d.location.line}:${d.location.col}: ` : '';
  return lineText(`${where}${d.severity}: ${addressedMessage(d)}`);
}

/**
 * The message as printed: led by the address when no location shows where, or when the location
 * is only the manifest's (one file may hold several) and the message does not name the address itself.
 */
export function addressedMessage(d: Diagnostic): string {
  if (!d.address) return d.message;
  if (!d.location) return `${d.address}: ${d.message}`;
  const named = d.message.startsWith(`${d.address}: `) || d.message.startsWith(`${d.address} `);
  return d.atManifest && !named ? `${d.address}: ${d.message}` : d.message;
}

export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** Sorts by file, line, column so output is stable. */
export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  return [...diags].sort((a, b) => {
    const fa = a.location?.file ?? '',
      fb = b.location?.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    return (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.col ?? 0) - (b.location?.col ?? 0);
  });
}

/**
 * A user-facing failure: the CLI prints its message (and diagnostics) once and exits 1,
 * without a stack. Anything else that reaches the CLI is a bug and prints its stack.
 */
export class UserError extends Error {
  /** moor's own lines shown under the one-line message (an example to copy), never foreign text. */
  readonly example?: string;

  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[] = [],
    options?: { cause?: unknown; example?: string },
  ) {
    super(message, options);
    this.name = 'UserError';
    this.example = options?.example;
  }
}

/**
 * Whether a thrown value is a failure the run reports as a value (a diagnostic, a failed step):
 * a UserError (a service's refusal included: ServiceError is one) or an operating-system error
 * (ENOSPC, EACCES… carry a syscall). Anything else — a TypeError, a failed assertion — is a bug,
 * which must reach the CLI with its stack instead of passing for a user's mistake.
 */
export function isUserFailure(err: unknown): boolean {
  if (err instanceof UserError) return true;
  return err instanceof Error && typeof (err as { syscall?: unknown }).syscall === 'string';
}

// moor watch: durations as people write them (90s, 5m, 1h, 500ms; a bare number is seconds).
import { UserError } from '../core/diagnostics.js';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of `text`, or a UserError naming `flag`. */
export function parseDuration(text: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  const ms = m ? Number(m[1]) * UNITS[(m[2] as string | undefined) ?? 's'] : NaN;
  if (!Number.isFinite(ms) || ms < 100) throw new UserError(`${flag} must be a duration of at least 100ms such as 30s, 5m or 1h, not '${text}'`);
  return Math.round(ms);
}

/** `ms` moved by up to ±fraction at random, so replicas and stacks do not plan in lockstep. */
export function jittered(ms: number, fraction = 0.1, random: () => number = Math.random): number {
  return Math.max(1, Math.round(ms * (1 + fraction * (2 * random() - 1))));
}

/** The wait after `failures` failures in a row: the interval doubled per failure, at most `maxMs`. */
export function backoff(intervalMs: number, failures: number, maxMs = 10 * 60_000): number {
  if (failures <= 0) return intervalMs;
  return Math.min(Math.max(intervalMs, maxMs), intervalMs * 2 ** failures);
}

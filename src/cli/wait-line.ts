// The one line of a retry or a throttle, for plain progress lines and the terminal's status line.
import type { MoorEventOf } from '../core/events.js';

export type Wait = MoorEventOf<'request_retried'> | MoorEventOf<'throttled'>;

/** `arm: throttled (429) on PUT /subscriptions/…/containerGroups/web, retrying in 4.0 s` (no query string; the output edge masks secrets). */
export function waitLine(e: Wait): string {
  const target = `${e.method} ${shortPath(e.path)}`;
  const why =
    e.type === 'throttled'
      ? `throttled (${e.status ?? 429}) on ${target}`
      : e.status !== undefined
        ? `answered ${e.status} to ${target}`
        : `no answer to ${target}`;
  return `${e.service}: ${why}, retrying in ${(e.delayMs / 1000).toFixed(1)} s`;
}

/** The wait as a step's line says it: `throttled by arm, retrying in 4 s`, `arm answered 503, retrying in 1 s`. */
export function waitPhrase(e: Wait): string {
  const why =
    e.type === 'throttled' ? `throttled by ${e.service}` : e.status !== undefined ? `${e.service} answered ${e.status}` : `no answer from ${e.service}`;
  return `${why}, retrying in ${Math.ceil(e.delayMs / 1000)} s`;
}

/** A long resource path as its first segment and its last two: `/subscriptions/…/containerGroups/web`. */
export function shortPath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.length <= 4) return path;
  return `/${segments[0]}/…/${segments.slice(-2).join('/')}`;
}

// Matches a request's method and path to one service route (`:param` segments, literal segments case-insensitive).
import type { LocalService, Route } from './types.js';

interface CompiledRoute {
  readonly service: LocalService;
  readonly route: Route;
  /** Literal segments lower-cased; params as `:name`. */
  readonly segments: readonly string[];
  readonly literals: number;
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly service: LocalService; readonly route: Route; readonly params: Record<string, string> }
  /** The path exists but not with this method. */
  | { readonly kind: 'method-not-allowed'; readonly service: LocalService; readonly allow: string[] }
  | { readonly kind: 'not-found' };

export interface Router {
  match(method: string, pathname: string): RouteMatch;
  /** For a path no route matches: the service whose routes share its longest leading part (for its error shape). */
  nearestService(pathname: string): LocalService | undefined;
}

/** How many leading segments of `parts` fit the pattern, counting only when a literal one fits. */
function sharedPrefix(pattern: readonly string[], parts: readonly string[]): number {
  let shared = 0;
  let literal = false;
  for (let i = 0; i < Math.min(pattern.length, parts.length); i++) {
    const seg = pattern[i];
    if (!seg.startsWith(':') && seg !== parts[i].toLowerCase()) break;
    literal ||= !seg.startsWith(':');
    shared++;
  }
  return literal ? shared : 0;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function compile(service: LocalService, route: Route): CompiledRoute {
  const segments = splitPath(route.path).map((s) => (s.startsWith(':') ? s : s.toLowerCase()));
  return { service, route, segments, literals: segments.filter((s) => !s.startsWith(':')).length };
}

/** Params of a path matched against compiled segments, or undefined when it does not match. */
function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const seg = pattern[i];
    if (seg.startsWith(':')) {
      try {
        params[seg.slice(1)] = decodeURIComponent(parts[i]);
      } catch {
        return undefined; // a malformed escape cannot name anything
      }
    } else if (seg !== parts[i].toLowerCase()) {
      return undefined;
    }
  }
  return params;
}

export function createRouter(services: readonly LocalService[]): Router {
  // Most literal segments first, so '/x/operations' wins over '/x/:name'.
  const routes = services.flatMap((s) => s.routes.map((r) => compile(s, r))).sort((a, b) => b.literals - a.literals);
  return {
    match(method, pathname) {
      const parts = splitPath(pathname);
      let pathMatch: { service: LocalService; allow: string[] } | undefined;
      for (const c of routes) {
        const params = matchSegments(c.segments, parts);
        if (!params) continue;
        if (c.route.method === method.toUpperCase()) return { kind: 'found', service: c.service, route: c.route, params };
        pathMatch ??= { service: c.service, allow: [] };
        pathMatch.allow.push(c.route.method);
      }
      return pathMatch ? { kind: 'method-not-allowed', ...pathMatch } : { kind: 'not-found' };
    },
    nearestService(pathname) {
      const parts = splitPath(pathname);
      let best: { service: LocalService; shared: number } | undefined;
      for (const c of routes) {
        const shared = sharedPrefix(c.segments, parts);
        if (shared > 0 && shared > (best?.shared ?? 0)) best = { service: c.service, shared };
      }
      return best?.service;
    },
  };
}

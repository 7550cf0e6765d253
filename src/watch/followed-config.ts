// moor watch: follows moor.config.yaml while it runs, as Argo CD follows an Application's spec. A
// stack's variables and paths (what its manifests are made of), its notify and history settings are
// taken up at the stack's next cycle; what the session was opened with (endpoints, credentials,
// state, parallelism, apis, files, the local cloud) stays until a restart, and the log says so.
import { statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { MoorConfig } from '../engine/config.js';
import type { Session } from '../engine/session.js';

/** What a running watch takes up from a changed config. */
const TAKEN_UP = ['stack', 'notify', 'history'] as const satisfies readonly (keyof MoorConfig)[];
/** What only a restart takes up: the clients, the scheduler and the state backend were opened with them. */
const AT_RESTART = ['endpoints', 'credentials', 'state', 'parallelism', 'apis', 'files', 'localCloud'] as const satisfies readonly (keyof MoorConfig)[];

export class FollowedConfig {
  private current: Session;
  private toldRestart = '';

  /** `read` loads the config as the session was opened with it (its file, the stack, the environment). */
  constructor(
    private readonly opened: Session,
    private readonly read: () => MoorConfig,
    private readonly log: (line: string) => void,
  ) {
    this.current = opened;
  }

  /** The session with the config as last read. */
  get session(): Session {
    return this.current;
  }

  /**
   * Reads the config again and takes up what changed. A config that cannot be read (broken YAML, the
   * stack removed) throws its UserError: the cycle fails and says why, as broken manifests do.
   */
  refresh(): void {
    const fresh = this.read();
    const config = this.current.config;
    const changed = TAKEN_UP.filter((k) => !isDeepStrictEqual(config[k], fresh[k]));
    if (changed.length > 0) {
      this.current = { ...this.current, config: { ...config, stack: fresh.stack, notify: fresh.notify, history: fresh.history } };
      this.log(`${fresh.file ?? 'moor.config.yaml'} changed: ${changed.map((k) => describe(k, config, fresh)).join(', ')}; planned with it from this cycle`);
    }
    const restart = AT_RESTART.filter((k) => !isDeepStrictEqual(this.opened.config[k], fresh[k]));
    const key = restart.join(',');
    if (key === this.toldRestart) return;
    this.toldRestart = key;
    if (restart.length > 0)
      this.log(
        `${fresh.file ?? 'moor.config.yaml'} changed ${restart.join(', ')}: a running watch keeps what it started with; restart moor watch to use the new ${restart.length === 1 ? 'value' : 'values'}`,
      );
  }
}

/** What changed, by name (variables are no secrets, but their values stay out of the log all the same). */
function describe(key: (typeof TAKEN_UP)[number], before: MoorConfig, after: MoorConfig): string {
  if (key !== 'stack') return key;
  const was = before.stack?.vars ?? {};
  const now = after.stack?.vars ?? {};
  const vars = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((n) => !isDeepStrictEqual(was[n], now[n]));
  const paths = isDeepStrictEqual(before.stack?.paths, after.stack?.paths) ? [] : ['paths'];
  const parts = [...(vars.length > 0 ? [`variables ${vars.join(', ')}`] : []), ...paths];
  return parts.length > 0 ? `the stack's ${parts.join(' and ')}` : 'the stack';
}

/**
 * `load` for each stack, done again only once the config file changed (its size, times or inode): every
 * stack's every cycle asks (refresh), and parsing a config of hundreds of stacks for each would cost
 * stacks² parses per interval. A config that could not be read is refused the same way until it changes.
 */
export function configReads<T>(path: string | undefined, load: (stack: string | undefined) => T): (stack: string | undefined) => T {
  let version: string | undefined;
  const read = new Map<string | undefined, { readonly config: T } | { readonly error: unknown }>();
  return (stack) => {
    const st = path === undefined ? undefined : statSync(path, { throwIfNoEntry: false });
    const now = st ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : 'none';
    if (now !== version) {
      version = now;
      read.clear();
    }
    let known = read.get(stack);
    if (!known) {
      try {
        known = { config: load(stack) };
      } catch (error) {
        known = { error };
      }
      read.set(stack, known);
    }
    if ('error' in known) throw known.error;
    return known.config;
  };
}

// One run's surroundings as the engine sees them: configuration, the kinds, the service clients,
// request pacing and the state backend. Who builds them (src/session) is no concern of the engine's.
import type { MoorConfig } from './config.js';
import type { StateBackend } from './state/types.js';
import type { KindCatalog } from '../core/kind-catalog.js';
import type { ServiceClients } from '../core/kind.js';
import type { RequestPacing } from '../core/request-pacing.js';
import type { EventSink } from '../core/events.js';
import type { Masker } from '../core/masker.js';
import type { Guard } from './guard.js';

export interface Session {
  readonly config: MoorConfig;
  readonly kinds: KindCatalog;
  readonly guard?: Guard;
  /** The clients the kinds call (every request passes the run's pacing). */
  readonly providers: ServiceClients;
  readonly backend: StateBackend;
  /** The state given for the run (--state, MOOR_STATE), if any: the other stacks' states are found with it too. */
  readonly stateGiven?: string;
  readonly parallelism: number;
  /** Every request of the run passes here: requests in flight per service, pacing, 429 pauses. */
  readonly scheduler: RequestPacing;
  /** Set when the built-in local cloud serves this run. */
  readonly localCloudUrl?: string;
  /** Wait between polls of followed operations; unset: each kind's own default. */
  readonly pollIntervalMs?: number;
  /**
   * The run's one event stream: the planner, the applier, the transport, the state backend and notify
   * emit into it. It goes to the sink the session was opened with, or, while an operation runs, to
   * that operation's host (operations/conversation.ts).
   */
  readonly events: EventSink;
  /** Sends `events` to `sink` instead until the returned function is called (an operation's conversation). */
  divert(sink: EventSink): () => void;
  /**
   * The secrets found in this run (resolved sensitive values, tokens, the state URL's password),
   * masked in whatever it writes: output, history, saved plans, notifications, the dashboard.
   */
  readonly masker: Masker;
  close(): Promise<void>;
}

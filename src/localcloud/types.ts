// The contract between the local cloud's HTTP core and each emulated service.
import type { IncomingHttpHeaders } from 'node:http';
import type { ServiceName } from '../core/services.js';

export interface LocalRequest {
  readonly method: string;
  /** Absolute URL as the client addressed it. */
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
  /** Path parameters of the matched route, URI-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** Parsed JSON body, or undefined when there is none. */
  readonly body: unknown;
  readonly rawBody: Buffer;
}

export interface LocalResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON-serialisable value, or raw bytes (sent as-is), or undefined for an empty body. */
  readonly body?: unknown;
}

export interface ServiceContext {
  /** The service's own persisted data; mutate it, then call `save()`. */
  readonly data: Record<string, unknown>;
  save(): void;
  /** Base address of this server, e.g. http://127.0.0.1:4010 (for absolute polling/paging URLs). */
  readonly baseUrl: string;
  /** This request's id, echoed in error bodies and request-id headers. */
  readonly requestId: string;
  now(): Date;
  /** How long asynchronous work (provisioning, deletion, jobs) takes before it is done, in ms. */
  readonly provisioningMs?: number;
  /** How long each phase of a database-movement operation lasts, in ms, when it differs from provisioningMs. */
  readonly operationPhaseMs?: number;
  /** The window of a service's own request limit (the eventstreams workspace limit), in ms, instead of the service's. */
  readonly rateWindowMs?: number;
}

export type Handler = (req: LocalRequest, ctx: ServiceContext) => LocalResponse | Promise<LocalResponse>;

export interface Route {
  readonly method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with `:param` segments, matched case-insensitively for literal segments, e.g. '/subscriptions/:subscriptionId/...'. */
  readonly path: string;
  readonly handler: Handler;
  /**
   * The operation is not idempotent (a POST that creates): with `failRate`, a share of the
   * injected faults drops the connection AFTER the handler ran, so clients must deduplicate.
   */
  readonly faultAfterCommit?: boolean;
  /**
   * Whether this request may be served without the bearer token (e.g. a pre-signed URL that a
   * client follows from a redirect, on which SDK clients drop Authorization).
   */
  readonly anonymous?: (url: URL, params: Readonly<Record<string, string>>) => boolean;
}

export interface LocalService {
  readonly name: ServiceName;
  readonly routes: readonly Route[];
  /** The service's own error shape (CloudError, Graph error, Fabric ErrorResponse, …). */
  errorBody(status: number, code: string, message: string, requestId: string): unknown;
  /** Extra headers every response of this service carries (e.g. X-Correlating-OperationId). */
  responseHeaders?(requestId: string): Record<string, string>;
  /**
   * Fills demo data into an empty store. Services with the same `name` share one `data`
   * object (ARM's container groups, usage and names see each other's data), so a seed
   * fills only its own keys.
   */
  seed?(data: Record<string, unknown>): void;
}

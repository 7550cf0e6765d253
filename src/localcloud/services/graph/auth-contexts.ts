// Local Graph (beta): authentication-context class references of conditional access (README.md in src/localcloud says what it promises).
import { ownEntry } from '../../own-entry.js';
import type { Handler, LocalRequest, LocalResponse, LocalService, ServiceContext } from '../../types.js';

const COLLECTION = '/beta/identity/conditionalAccess/authenticationContextClassReferences';
const ID_PATTERN = /^c([1-9]|[1-9][0-9])$/;

/** The updatable properties and the JSON type each must have. */
const PROPERTY_TYPES: Readonly<Record<string, 'string' | 'boolean'>> = {
  displayName: 'string',
  description: 'string',
  isAvailable: 'boolean',
};

export interface AuthContextRecord {
  id: string;
  displayName: string | null;
  description: string | null;
  isAvailable: boolean;
}

type Store = Record<string, AuthContextRecord>;

function store(ctx: ServiceContext): Store {
  const data = ctx.data;
  data.authContexts ??= {};
  return data.authContexts as Store;
}

/** Graph's error body; the client request id is echoed when the client sent one. */
export function graphErrorBody(code: string, message: string, requestId: string, clientRequestId = requestId): unknown {
  const date = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { error: { code, message, innerError: { date, 'request-id': requestId, 'client-request-id': clientRequestId } } };
}

function clientRequestId(req: LocalRequest, ctx: ServiceContext): string {
  const sent = req.headers['client-request-id'];
  return typeof sent === 'string' && sent !== '' ? sent : ctx.requestId;
}

function fail(req: LocalRequest, ctx: ServiceContext, status: number, code: string, message: string): LocalResponse {
  return { status, body: graphErrorBody(code, message, ctx.requestId, clientRequestId(req, ctx)) };
}

/** Graph echoes the client's `client-request-id` on every answer. */
function echoingClientId(handler: Handler): Handler {
  return async (req, ctx) => {
    const response = await handler(req, ctx);
    return { ...response, headers: { ...response.headers, 'client-request-id': clientRequestId(req, ctx) } };
  };
}

/** The 400 for an id outside c1..c99, or undefined when the id is valid. */
function badId(req: LocalRequest, ctx: ServiceContext): LocalResponse | undefined {
  const id = req.params.id;
  if (ID_PATTERN.test(id)) return undefined;
  return fail(req, ctx, 400, 'invalidRequest', `Invalid id '${id}': authentication context ids are c1 to c99.`);
}

function notFound(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  return fail(req, ctx, 404, 'itemNotFound', `The authentication context class reference '${req.params.id}' was not found.`);
}

function entityContext(ctx: ServiceContext): string {
  return `${ctx.baseUrl}/beta/$metadata#identity/conditionalAccess/authenticationContextClassReferences`;
}

function view(record: AuthContextRecord): AuthContextRecord {
  return { id: record.id, displayName: record.displayName, description: record.description, isAvailable: record.isAvailable };
}

/** Why a PATCH body is refused, or undefined when it is acceptable. */
export function patchBodyProblem(body: unknown, id: string): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The request body must be a JSON object.';
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('@odata.')) continue; // SDK clients annotate bodies with @odata.type
    if (key === 'id') {
      if (value !== id) return `The id in the body ('${String(value)}') does not match the id in the path ('${id}').`;
      continue;
    }
    const expected = ownEntry(PROPERTY_TYPES, key);
    if (!expected) return `Invalid property '${key}': authenticationContextClassReference has no such property.`;
    const nullableString = expected === 'string' && value === null;
    if (typeof value !== expected && !nullableString) return `Invalid value for property '${key}': expected a ${expected === 'string' ? 'String' : 'Boolean'}.`;
  }
  return undefined;
}

export function getAuthContext(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const invalid = badId(req, ctx);
  if (invalid) return invalid;
  const record = ownEntry(store(ctx), req.params.id);
  if (!record) return notFound(req, ctx);
  return { status: 200, body: { '@odata.context': `${entityContext(ctx)}/$entity`, ...view(record) } };
}

export function listAuthContexts(_req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const value = Object.values(store(ctx))
    .sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)))
    .map(view);
  return { status: 200, body: { '@odata.context': entityContext(ctx), value } };
}

/** Upsert: a new id is created, an existing one changes only the properties sent. */
export function patchAuthContext(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const invalid = badId(req, ctx);
  if (invalid) return invalid;
  const id = req.params.id;
  const problem = patchBodyProblem(req.body, id);
  if (problem) return fail(req, ctx, 400, 'invalidRequest', problem);
  const contexts = store(ctx);
  const record = ownEntry(contexts, id) ?? { id, displayName: null, description: null, isAvailable: false };
  const changes = req.body as Record<string, unknown>;
  if ('displayName' in changes) record.displayName = changes.displayName as string | null;
  if ('description' in changes) record.description = changes.description as string | null;
  if ('isAvailable' in changes) record.isAvailable = changes.isAvailable as boolean;
  contexts[id] = record;
  ctx.save();
  return { status: 204 };
}

export function deleteAuthContext(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const invalid = badId(req, ctx);
  if (invalid) return invalid;
  const contexts = store(ctx);
  if (!ownEntry(contexts, req.params.id)) return notFound(req, ctx);
  Reflect.deleteProperty(contexts, req.params.id); // an id badId accepted (c1 to c99)
  ctx.save();
  return { status: 204 };
}

export const graphAuthContexts: LocalService = {
  name: 'graph',
  routes: [
    { method: 'GET', path: COLLECTION, handler: echoingClientId(listAuthContexts) },
    { method: 'GET', path: `${COLLECTION}/:id`, handler: echoingClientId(getAuthContext) },
    { method: 'PATCH', path: `${COLLECTION}/:id`, handler: echoingClientId(patchAuthContext) },
    { method: 'DELETE', path: `${COLLECTION}/:id`, handler: echoingClientId(deleteAuthContext) },
  ],
  errorBody: (_status, code, message, requestId) => graphErrorBody(code, message, requestId),
  responseHeaders: (requestId) => ({ 'request-id': requestId, 'client-request-id': requestId }),
};

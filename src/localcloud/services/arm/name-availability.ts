// Server-name availability: always 200; Invalid for names that break the rules, AlreadyExists for taken ones.
import { isObject } from '../../../core/json.js';
import type { LocalRequest, LocalResponse, LocalService, ServiceContext } from '../../types.js';
import { checkApiVersion } from './api-version.js';
import { armResponseHeaders, cloudError, cloudErrorBody } from './cloud-error.js';
import { UUID } from './validation-kit.js';
import { API_VERSIONS, SQL_NS } from './vendor.js';

const SERVER_TYPE = `${SQL_NS}/servers`;
const NAME_RULE = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const RULES_MESSAGE =
  'Server names must be at most 63 characters long, contain only lower-case letters, digits and hyphens ' +
  '(a hyphen only inside the name), must not contain a dot or an underscore, and must not start or end with a hyphen.';

/** Names the demo data treats as taken by someone else. */
export const TAKEN_SERVER_NAMES = ['taken-server', 'sql-prod', 'contoso-sql'];

export function nameProblem(name: string): boolean {
  return name.length === 0 || name.length > 63 || !NAME_RULE.test(name);
}

function takenNames(data: Record<string, unknown>): string[] {
  return Array.isArray(data.takenServerNames) ? data.takenServerNames.filter((n): n is string => typeof n === 'string') : [];
}

function checkNameAvailability(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const bad = checkApiVersion(req, API_VERSIONS.sql);
  if (bad) return bad;
  if (!UUID.test(req.params.subscriptionId)) {
    return cloudError(400, 'InvalidSubscriptionId', `The subscription identifier '${req.params.subscriptionId}' is malformed or invalid.`, 'subscriptionId');
  }
  const body = req.body;
  if (!isObject(body) || typeof body.name !== 'string') {
    return cloudError(400, 'InvalidRequestContent', "The request body needs 'name' (string) and 'type'.", 'name');
  }
  const type: unknown = body.type; // the client may leave it out
  if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== SERVER_TYPE.toLowerCase())) {
    return cloudError(400, 'InvalidResourceType', `The resource type must be '${SERVER_TYPE}'.`, 'type');
  }
  const name = body.name;
  if (nameProblem(name)) {
    return { status: 200, body: { name, available: false, reason: 'Invalid', message: `'${name}' is not a valid server name. ${RULES_MESSAGE}` } };
  }
  if (takenNames(ctx.data).includes(name)) {
    return { status: 200, body: { name, available: false, reason: 'AlreadyExists', message: `The name '${name}' already exists. Choose a different name.` } };
  }
  return { status: 200, body: { name, available: true } };
}

export const armNameAvailability: LocalService = {
  name: 'arm',
  routes: [{ method: 'POST', path: `/subscriptions/:subscriptionId/providers/${SQL_NS}/checkNameAvailability`, handler: checkNameAvailability }],
  errorBody: (_status, code, message) => cloudErrorBody(code, message),
  responseHeaders: armResponseHeaders,
  seed(data) {
    data.takenServerNames ??= [...TAKEN_SERVER_NAMES];
  },
};

// JSON Schema of the Check spec: one of quota, nameAvailable, eventstreamExists, spend (seeds 001, 002).
import type { JsonObject } from '../../core/json.js';
import { enumOf, nonEmpty, object, patterned, uuid } from '../../core/schema-parts.js';

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** Seed 002: digits; PCN. and alphanumerics; or a GUID, optionally ":" GUID "_" YYYY-MM-DD. */
const billingAccountName = patterned(
  `^([0-9]+|PCN\\.[A-Za-z0-9]+|${GUID}(:${GUID}_[0-9]{4}-[0-9]{2}-[0-9]{2})?)$`,
  'must be digits, "PCN." and letters or digits, or a GUID (optionally ":" GUID "_" YYYY-MM-DD)',
);

/** Seed 002: H9-xxx; G/H/T/HT + 9; D + 9; E + [B-Z0-9] + 8; EA + 8 (upper-case alphanumerics). */
const invoiceName = patterned(
  '^(H[0-9]-[A-Za-z0-9]+|(G|H|T|HT)[A-Z0-9]{9}|D[A-Z0-9]{9}|E[B-Z0-9][A-Z0-9]{8}|EA[A-Z0-9]{8})$',
  "must be an invoice name such as G012345678 (the billing service's invoice names)",
);

/** Seed 001: at most 63 lower-case letters and digits, inner hyphens allowed. */
const serverName = patterned('^[a-z0-9]([a-z0-9-]*[a-z0-9])?$', 'must be 1 to 63 lower-case letters and digits, with hyphens only inside', {
  minLength: 1,
  maxLength: 63,
});

export const specSchema: JsonObject = object({
  quota: object(
    {
      subscriptionId: uuid,
      location: nonEmpty,
      resource: { type: 'string', minLength: 1, default: 'ContainerGroups' },
      minFree: { type: 'integer', minimum: 0 },
    },
    ['subscriptionId', 'location', 'minFree'],
  ),
  nameAvailable: object(
    {
      subscriptionId: uuid,
      name: serverName,
      type: { type: 'string', minLength: 1, default: 'Vendor.Sql/servers' },
    },
    ['subscriptionId', 'name'],
  ),
  eventstreamExists: object({ workspaceId: uuid, displayName: nonEmpty }, ['workspaceId', 'displayName']),
  spend: object(
    {
      billingAccountName,
      invoiceName,
      max: object(
        {
          value: { type: 'number', minimum: 0 },
          currency: patterned('^[A-Z]{3}$', 'must be an ISO 4217 currency code such as USD'),
        },
        ['value', 'currency'],
      ),
    },
    ['billingAccountName', 'invoiceName', 'max'],
  ),
  severity: enumOf(['error', 'warning']),
});

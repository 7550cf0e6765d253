// moor get: checks of the read commands' arguments before anything is sent (the formats of container-group, invoice and workspace names).
import { UserError } from '../core/diagnostics.js';
import { MAX_TOP } from '../providers/billing.js';

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID = new RegExp(`^${GUID}$`);
/** Seed 002: digits; PCN. and alphanumerics; or a GUID, optionally ":" GUID "_" YYYY-MM-DD. */
const BILLING_ACCOUNT = new RegExp(`^([0-9]+|PCN\\.[A-Za-z0-9]+|${GUID}(:${GUID}_[0-9]{4}-[0-9]{2}-[0-9]{2})?)$`);
/** Seed 002: H9-xxx; G/H/T/HT + 9; D + 9; E + [B-Z0-9] + 8; EA + 8 (upper-case alphanumerics). */
const INVOICE = /^(H[0-9]-[A-Za-z0-9]+|(G|H|T|HT)[A-Z0-9]{9}|D[A-Z0-9]{9}|E[B-Z0-9][A-Z0-9]{8}|EA[A-Z0-9]{8})$/;

export function uuidArg(option: string, value: string): string {
  if (!UUID.test(value)) throw new UserError(`${option} must be a UUID such as 8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11 (got '${value}')`);
  return value;
}

export function nonEmptyArg(option: string, value: string): string {
  if (value.trim().length === 0) throw new UserError(`${option} must not be empty`);
  return value;
}

/** A location is one path segment of the usage URL: a region name such as westeurope. */
export function locationArg(value: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9 _-]*$/.test(value)) throw new UserError(`--location must be a region name such as westeurope (got '${value}')`);
  return value;
}

export function billingAccountArg(value: string): string {
  if (!BILLING_ACCOUNT.test(value)) {
    throw new UserError(
      `--billing-account must be digits, "PCN." and letters or digits, or a GUID optionally followed by ":" GUID "_" YYYY-MM-DD (got '${value}')`,
    );
  }
  return value;
}

export function invoiceArg(value: string): string {
  if (!INVOICE.test(value)) {
    throw new UserError(`--invoice must be an invoice name such as G012345678, H1-ABC, D0123456789 or EA01234567 (got '${value}')`);
  }
  return value;
}

/** Page size of the billing listing: 1 to 50; every page is read whatever it is. */
export function topArg(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_TOP)
    throw new UserError(`--top must be a whole number from 1 to ${MAX_TOP} (the service's largest page; every page is read anyway), not '${value}'`);
  return n;
}

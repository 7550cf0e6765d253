// Billing account and invoice name patterns of the billing service.
const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

const ACCOUNT_PATTERNS: readonly RegExp[] = [/^[0-9]+$/, /^PCN\.[A-Za-z0-9]+$/, new RegExp(`^${GUID}(:${GUID}_[0-9]{4}-[0-9]{2}-[0-9]{2})?$`)];

const INVOICE_PATTERNS: readonly RegExp[] = [/^H[0-9]-[A-Za-z0-9]+$/, /^(G|H|T|HT)[A-Z0-9]{9}$/, /^D[A-Z0-9]{9}$/, /^E[B-Z0-9][A-Z0-9]{8}$/, /^EA[A-Z0-9]{8}$/];

export const ACCOUNT_RULE =
  'digits only; PCN. followed by letters and digits; or a GUID, optionally followed by a colon, a second GUID, an underscore and a yyyy-mm-dd date';
export const INVOICE_RULE =
  'H, a digit, a hyphen and letters or digits; G, H, T or HT plus nine upper-case letters or digits; D plus nine; E plus a letter B-Z or a digit plus eight; or EA plus eight';

export function isBillingAccountName(name: string): boolean {
  return ACCOUNT_PATTERNS.some((p) => p.test(name));
}

export function isInvoiceName(name: string): boolean {
  return INVOICE_PATTERNS.some((p) => p.test(name));
}

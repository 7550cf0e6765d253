// Billing transactions of an invoice: name patterns, filter/orderBy/search, top <= 50, absolute nextLink pages.
import { isObject, type JsonObject } from '../../../core/json.js';
import type { LocalRequest, LocalResponse, LocalService, ServiceContext } from '../../types.js';
import { armResponseHeaders } from './cloud-error.js';
import { invoiceTransactions, type InvoiceSpec } from './billing-demo-data.js';
import { ACCOUNT_RULE, INVOICE_RULE, isBillingAccountName, isInvoiceName } from './billing-names.js';
import { applyFilter, applyOrderBy, applySearch, parseFilter } from './billing-query.js';
import { API_VERSIONS, BILLING_NS } from './vendor.js';

const MAX_TOP = 50;
const DEFAULT_PAGE_SIZE = 20;

interface BillingData {
  // Looked up by names from the request path: a name may be absent.
  accounts: Partial<Record<string, { displayName: string; invoices: Partial<Record<string, InvoiceSpec>> }>>;
}

/** The demo account and invoice, listed in the local cloud's README. */
export const DEMO_BILLING: BillingData = {
  accounts: {
    '12345678': {
      displayName: 'Contoso Demo',
      invoices: {
        G012345678: { transactions: 137, periodStart: '2026-09-01', billingProfileDisplayName: 'Contoso Operations' },
        G012345679: { transactions: 12, periodStart: '2026-10-01', billingProfileDisplayName: 'Contoso Operations' },
      },
    },
  },
};

/** Billing's ErrorResponse: `{error: {code, message, target, details, additionalInfo}}`. */
function billingErrorBody(code: string, message: string, target?: string): unknown {
  return { error: { code, message, ...(target ? { target } : {}), details: [], additionalInfo: [] } };
}

function billingError(status: number, code: string, message: string, target?: string): LocalResponse {
  return { status, body: billingErrorBody(code, message, target) };
}

/** A query parameter under its plain or `$`-prefixed name. */
function param(req: LocalRequest, name: string): { key: string; value: string } | undefined {
  for (const key of [name, `$${name}`]) {
    const value = req.url.searchParams.get(key);
    if (value !== null) return { key, value };
  }
  return undefined;
}

function wholeNumber(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

function checkRequest(req: LocalRequest): LocalResponse | undefined {
  const version = req.url.searchParams.get('api-version');
  if (!version) return billingError(400, 'MissingApiVersionParameter', 'The api-version query parameter (?api-version=) is required for all requests.');
  if (version !== API_VERSIONS.billing)
    return billingError(400, 'InvalidApiVersionParameter', `The api-version '${version}' is invalid. The supported versions are '${API_VERSIONS.billing}'.`);
  const { billingAccountName: account, invoiceName: invoice } = req.params;
  if (!isBillingAccountName(account))
    return billingError(400, 'InvalidBillingAccountName', `The billing account name '${account}' is invalid: ${ACCOUNT_RULE}.`, 'billingAccountName');
  if (!isInvoiceName(invoice)) return billingError(400, 'InvalidInvoiceName', `The invoice name '${invoice}' is invalid: ${INVOICE_RULE}.`, 'invoiceName');
  const top = param(req, 'top');
  const topValue = wholeNumber(top?.value);
  if (top && (topValue === undefined || topValue < 1 || topValue > MAX_TOP)) {
    return billingError(400, 'InvalidTopValue', `The value of top must be an integer from 1 to ${MAX_TOP}; got '${top.value}'.`, 'top');
  }
  const skip = param(req, 'skip');
  if (skip && wholeNumber(skip.value) === undefined)
    return billingError(400, 'InvalidSkipValue', `The value of skip must be a whole number; got '${skip.value}'.`, 'skip');
  return undefined;
}

function matching(req: LocalRequest, all: readonly JsonObject[]): JsonObject[] | LocalResponse {
  let items = [...all];
  const filter = param(req, 'filter');
  if (filter && filter.value.trim() !== '') {
    const parsed = parseFilter(filter.value);
    if (!parsed.ok) return billingError(400, 'InvalidFilter', parsed.message, 'filter');
    items = applyFilter(items, parsed.value);
  }
  const search = param(req, 'search');
  if (search && search.value.trim() !== '') items = applySearch(items, search.value.trim());
  const orderBy = param(req, 'orderBy') ?? param(req, 'orderby');
  if (orderBy && orderBy.value.trim() !== '') {
    const sorted = applyOrderBy(items, orderBy.value);
    if (!sorted.ok) return billingError(400, 'InvalidOrderBy', sorted.message, 'orderBy');
    items = sorted.value;
  }
  return items;
}

function listTransactions(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const bad = checkRequest(req);
  if (bad) return bad;
  const { billingAccountName: account, invoiceName: invoice } = req.params;
  const billing = isObject(ctx.data.billing) ? (ctx.data.billing as unknown as BillingData) : { accounts: {} };
  const acct = billing.accounts[account];
  if (!acct) return billingError(404, 'BillingAccountNotFound', `The billing account '${account}' was not found.`);
  const spec = acct.invoices[invoice];
  if (!spec) return billingError(404, 'InvoiceNotFound', `The invoice '${invoice}' was not found in billing account '${account}'.`);
  const items = matching(req, invoiceTransactions(account, invoice, spec));
  if (!Array.isArray(items)) return items;
  const pageSize = wholeNumber(param(req, 'top')?.value) ?? DEFAULT_PAGE_SIZE;
  const skipParam = param(req, 'skip');
  const skip = wholeNumber(skipParam?.value) ?? 0;
  const body: JsonObject = { value: items.slice(skip, skip + pageSize) };
  if (skip + pageSize < items.length) {
    const next = new URL(req.url.pathname + req.url.search, ctx.baseUrl);
    next.searchParams.set(skipParam?.key ?? 'skip', String(skip + pageSize));
    body.nextLink = next.toString();
  }
  if (param(req, 'count')?.value.toLowerCase() === 'true') body.totalCount = items.length;
  return { status: 200, body };
}

export const armBilling: LocalService = {
  name: 'arm',
  routes: [
    { method: 'GET', path: `/providers/${BILLING_NS}/billingAccounts/:billingAccountName/invoices/:invoiceName/transactions`, handler: listTransactions },
  ],
  errorBody: (_status, code, message) => billingErrorBody(code, message),
  responseHeaders: armResponseHeaders,
  seed(data) {
    data.billing ??= structuredClone(DEMO_BILLING);
  },
};

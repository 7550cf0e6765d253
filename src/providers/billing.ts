// The billing client (ARM endpoint): every transaction of an invoice, over all pages.
import { UserError } from '../core/diagnostics.js';
import { DEFAULT_API_SETTINGS, type ApiSettings } from './api-settings.js';
import { expectObject } from './answer-shape.js';
import { listByNextLink } from './paging.js';
import type { RequestSender } from './transport.js';

/** The service's largest page ($top at most 50). */
export const MAX_TOP = 50;

/** An amount in a currency. */
export interface Amount {
  readonly currency?: string;
  readonly value?: number;
}

/** One transaction; all fields are read-only and passed through. */
export interface Transaction {
  readonly id?: string;
  readonly name?: string;
  readonly type?: string;
  readonly properties?: {
    readonly transactionAmount?: Amount;
    readonly billingCurrency?: string;
    readonly date?: string;
    readonly invoice?: string;
    readonly productDescription?: string;
    readonly [field: string]: unknown;
  };
  readonly [field: string]: unknown;
}

export interface TransactionQuery {
  readonly filter?: string;
  /** Page size, 1 to 50. */
  readonly top?: number;
  readonly orderBy?: string;
  readonly search?: string;
}

const enc = encodeURIComponent;

export class BillingClient {
  constructor(
    private readonly t: RequestSender,
    private readonly api: ApiSettings['billing'] = DEFAULT_API_SETTINGS.billing,
  ) {}

  /** Every transaction of the invoice, following nextLink to the last page. */
  listTransactions(account: string, invoice: string, q: TransactionQuery = {}): Promise<Transaction[]> {
    if (q.top !== undefined && (!Number.isInteger(q.top) || q.top < 1 || q.top > MAX_TOP)) {
      throw new UserError(`top must be a whole number from 1 to ${MAX_TOP} (got ${q.top})`);
    }
    const path = `/providers/${this.api.namespace}/billingAccounts/${enc(account)}/invoices/${enc(invoice)}/transactions`;
    return listByNextLink<Transaction>(
      this.t,
      {
        method: 'GET',
        path,
        label: `invoices/${invoice}/transactions`,
        query: { 'api-version': this.api.apiVersion, filter: q.filter, orderBy: q.orderBy, top: q.top, search: q.search },
      },
      (item, page, i) => {
        expectObject(page, item, `transaction #${i + 1}`);
      },
    );
  }
}

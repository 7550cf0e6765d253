// Deterministic demo transactions of an invoice: generated from a seed, so the data file stays small.
import { createHash } from 'node:crypto';
import type { JsonObject } from '../../../core/json.js';
import { stableUuid } from './deterministic.js';
import { BILLING_NS } from './vendor.js';

/** What the data file keeps about an invoice; its transactions are derived from it. */
export interface InvoiceSpec {
  readonly transactions: number;
  /** First day of the billed month, yyyy-mm-dd. */
  readonly periodStart: string;
  readonly billingProfileDisplayName: string;
}

interface Product {
  family: string;
  type: string;
  description: string;
  unit: string;
  unitType: string;
  price: number;
}

const PRODUCTS: readonly Product[] = [
  {
    family: 'Compute',
    type: 'Container Instances',
    description: 'Container Instances - Standard vCPU Duration',
    unit: '1 Hour',
    unitType: 'vCPU hours',
    price: 0.0405,
  },
  {
    family: 'Compute',
    type: 'Container Instances',
    description: 'Container Instances - Standard Memory Duration',
    unit: '1 GB Hour',
    unitType: 'GB hours',
    price: 0.00445,
  },
  { family: 'Compute', type: 'Virtual Machines', description: 'D2s v5 - Linux', unit: '1 Hour', unitType: 'hours', price: 0.096 },
  { family: 'Storage', type: 'Storage', description: 'Files - Hot LRS Data Stored', unit: '1 GB/Month', unitType: 'GB months', price: 0.0255 },
  { family: 'Networking', type: 'Bandwidth', description: 'Data Transfer Out - Zone 1', unit: '1 GB', unitType: 'GB', price: 0.087 },
  { family: 'Databases', type: 'SQL Database', description: 'SQL Database - General Purpose vCore', unit: '1 Hour', unitType: 'vCore hours', price: 0.5044 },
  { family: 'Analytics', type: 'Event Streams', description: 'Eventstream - Capacity Unit', unit: '1 Hour', unitType: 'CU hours', price: 0.18 },
  { family: 'Developer Tools', type: 'Support', description: 'Developer Support Plan', unit: '1 Month', unitType: 'months', price: 29 },
];

const CUSTOMERS = ['Contoso Retail', 'Fabrikam Logistics', 'Northwind Traders'];

/** mulberry32: a tiny deterministic generator. */
function generator(seed: string): () => number {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** XXXX-XXXX-XXX-XXX, the look of billing profile and product ids. */
function shortId(seed: string): string {
  const h = stableUuid(seed).replace(/-/g, '').toUpperCase();
  return `${h.slice(0, 4)}-${h.slice(4, 8)}-${h.slice(8, 11)}-${h.slice(11, 14)}`;
}

const cents = (n: number): number => Math.round(n * 100) / 100;
const amount = (currency: string, value: number): JsonObject => ({ currency, value: cents(value) });

const cache = new Map<string, JsonObject[]>();

/** The transactions of an invoice, the same on every call and every run. */
export function invoiceTransactions(account: string, invoice: string, spec: InvoiceSpec): JsonObject[] {
  const key = `${account}/${invoice}/${JSON.stringify(spec)}`;
  let list = cache.get(key);
  if (!list) {
    const random = generator(key);
    list = Array.from({ length: spec.transactions }, (_, i) => transaction(account, invoice, spec, i, random));
    cache.set(key, list);
  }
  return list;
}

function transaction(account: string, invoice: string, spec: InvoiceSpec, i: number, random: () => number): JsonObject {
  const accountPath = `/providers/${BILLING_NS}/billingAccounts/${account}`;
  const product = PRODUCTS[Math.floor(random() * PRODUCTS.length)];
  const currency = random() < 0.85 ? 'USD' : 'EUR';
  const isRefund = random() < 0.05;
  const isReservation = !isRefund && random() < 0.15;
  const quantity = 1 + Math.floor(random() * 40);
  const units = cents(10 + random() * 600);
  const start = new Date(`${spec.periodStart}T00:00:00Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0));
  const date = new Date(start.getTime() + Math.floor(random() * 28) * 86_400_000 + Math.floor(random() * 86_400) * 1000);
  const sign = isRefund ? -1 : 1;
  const subTotal = sign * Math.max(1.5, units * product.price * (isReservation ? 3 : 1) + random() * 40);
  const tax = subTotal * (currency === 'EUR' ? 0.19 : 0.07);
  const name = stableUuid(`${account}/${invoice}/transaction/${i}`);
  // Fields added later take nothing from `random`, so the older fields keep their values.
  const customer = CUSTOMERS[i % CUSTOMERS.length];
  return {
    id: `${accountPath}/transactions/${name}`,
    name,
    type: `${BILLING_NS}/billingAccounts/transactions`,
    tags: {},
    systemData: {
      createdAt: date.toISOString(),
      createdBy: 'billing-service',
      createdByType: 'Application',
      lastModifiedAt: date.toISOString(),
      lastModifiedBy: 'billing-service',
      lastModifiedByType: 'Application',
    },
    properties: {
      customerId: `${accountPath}/customers/${shortId(`${account}/customer/${customer}`)}`,
      customerDisplayName: customer,
      partNumber: `${product.family.slice(0, 3).toUpperCase()}-${shortId(product.description).slice(0, 9)}`,
      vendorPlan: isReservation ? 'Reserved capacity' : 'Pay as you go',
      billingCurrency: currency,
      pricingCurrency: currency,
      billingProfileDisplayName: spec.billingProfileDisplayName,
      billingProfileId: `${accountPath}/billingProfiles/${shortId(`${account}/profile`)}`,
      date: date.toISOString(),
      discount: isReservation ? 0.1 : 0,
      effectivePrice: amount(currency, subTotal / quantity),
      marketPrice: amount(currency, (subTotal / quantity) * (isReservation ? 1.1 : 1)),
      exchangeRate: 1,
      invoice,
      invoiceId: `${accountPath}/invoices/${invoice}`,
      invoiceSectionDisplayName: i % 3 === 0 ? 'Platform team' : 'Product team',
      invoiceSectionId: `${accountPath}/invoiceSections/${i % 3 === 0 ? 'platform' : 'product'}`,
      isThirdParty: product.family === 'Developer Tools' && i % 2 === 0,
      kind: isReservation ? 'Reservation' : 'Other',
      productDescription: product.description,
      productFamily: product.family,
      productType: product.type,
      productTypeId: shortId(product.type),
      quantity,
      servicePeriodStartDate: start.toISOString(),
      servicePeriodEndDate: end.toISOString(),
      subTotal: amount(currency, subTotal),
      tax: amount(currency, tax),
      transactionAmount: amount(currency, subTotal + tax),
      vendorCreditApplied: amount(currency, 0),
      consumptionCommitmentDecremented: amount(currency, 0),
      transactionType: isRefund ? 'Refund' : isReservation ? 'Purchase' : 'Usage Charges',
      unitOfMeasure: product.unit,
      unitType: product.unitType,
      units,
      ...(isRefund
        ? {
            creditType: 'Refund',
            reasonCode: 'ServiceInterruption',
            refundTransactionDetails: {
              amountRefunded: amount(currency, -subTotal),
              amountRequested: amount(currency, -subTotal),
              refundOperationId: stableUuid(`refund/${name}`),
            },
          }
        : {}),
    },
  };
}

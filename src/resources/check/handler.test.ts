// The Check handler with fake clients: each variant's pass/fail decision and its one-line message.
import { describe, expect, it } from 'vitest';
import type { Providers } from '../../providers/providers.js';
import type { Transaction } from '../../providers/billing.js';
import type { KindContext } from '../../core/kind.js';
import { check } from './handler.js';

const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';

function ctxWith(providers: Record<string, unknown>): KindContext {
  // Each test fakes only the client its variant uses.
  return { providers: providers as unknown as Providers, log: () => undefined };
}

const tx = (value: number, currency: string): Transaction => ({ properties: { transactionAmount: { value, currency } } });

describe('Check handler', () => {
  it.each([
    ['passes when limit - current >= minFree', 90, 10, true],
    ['fails when fewer are free than needed', 95, 10, false],
  ])('quota %s', async (_reason, current, minFree, passed) => {
    const ctx = ctxWith({ arm: { listUsage: async () => [{ name: { value: 'ContainerGroups' }, currentValue: current, limit: 100 }] } });
    const r = await check.evaluate(ctx, { quota: { subscriptionId: SUB, location: 'westeurope', minFree } });
    expect(r.passed).toBe(passed);
    expect(r.message).toBe(`quota of ContainerGroups in westeurope: ${current} of 100 used, ${100 - current} free (need at least ${minFree})`);
  });

  it('quota fails when the resource is not reported', async () => {
    const ctx = ctxWith({ arm: { listUsage: async () => [] } });
    const r = await check.evaluate(ctx, { quota: { subscriptionId: SUB, location: 'x', resource: 'Cores', minFree: 1 } });
    expect(r).toMatchObject({ passed: false, message: 'quota: no usage of Cores is reported in x' });
  });

  it('nameAvailable passes when available and explains a refusal with the reason', async () => {
    const answers = { free: { available: true }, taken: { available: false, reason: 'AlreadyExists', message: 'Server name taken.' } };
    const ctx = ctxWith({ arm: { checkNameAvailability: async (_s: string, name: keyof typeof answers) => answers[name] } });
    await expect(check.evaluate(ctx, { nameAvailable: { subscriptionId: SUB, name: 'free' } })).resolves.toMatchObject({
      passed: true,
      message: "name 'free' is available",
    });
    await expect(check.evaluate(ctx, { nameAvailable: { subscriptionId: SUB, name: 'taken' } })).resolves.toMatchObject({
      passed: false,
      message: "name 'taken' is not available (AlreadyExists: Server name taken.)",
    });
  });

  it('eventstreamExists looks through every listed item by displayName', async () => {
    const items = Array.from({ length: 120 }, (_, i) => ({ id: `id${i}`, displayName: `stream-${i}` }));
    const ctx = ctxWith({ fabric: { listEventstreams: async () => items } });
    await expect(check.evaluate(ctx, { eventstreamExists: { workspaceId: 'w', displayName: 'stream-119' } })).resolves.toMatchObject({ passed: true });
    const missing = await check.evaluate(ctx, { eventstreamExists: { workspaceId: 'w', displayName: 'nope' } });
    expect(missing).toMatchObject({ passed: false, message: "eventstream 'nope' not found among the 120 eventstreams of workspace w" });
  });

  it('spend sums the transactions of the max currency and shows the other currencies', async () => {
    const ctx = ctxWith({ billing: { listTransactions: async () => [tx(100.25, 'EUR'), tx(50, 'EUR'), tx(12, 'USD'), { properties: {} }] } });
    const ok = await check.evaluate(ctx, { spend: { billingAccountName: '1', invoiceName: 'G123456789', max: { value: 200, currency: 'EUR' } } });
    expect(ok.passed).toBe(true);
    expect(ok.message).toBe('spend on invoice G123456789: 150.25 EUR of at most 200.00 EUR over 4 transactions; also 12.00 USD');
    const over = await check.evaluate(ctx, { spend: { billingAccountName: '1', invoiceName: 'G123456789', max: { value: 150, currency: 'EUR' } } });
    expect(over.passed).toBe(false);
  });

  it('refuses a spec with none or two variants', async () => {
    const ctx = ctxWith({});
    await expect(check.evaluate(ctx, {})).rejects.toThrow(/exactly one of/);
    await expect(check.evaluate(ctx, { quota: {}, spend: {} })).rejects.toThrow(/found quota, spend/);
  });
});

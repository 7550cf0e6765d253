// `moor local-cloud` flags and their MOOR_* variables become LocalCloudOptions; bad values are user errors.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { localCloudOptions } from '../../src/localcloud/cli-options.js';

describe('local-cloud options', () => {
  it('defaults to a free port, the default data file and no knobs', () => {
    expect(localCloudOptions({}, {})).toMatchObject({ port: 0, dataFile: '.moor/local-cloud.json', seed: true, token: undefined, failRate: undefined });
  });

  it('reads every knob from its environment variable', () => {
    const env = {
      MOOR_LOCAL_CLOUD_PORT: '4010',
      MOOR_LOCAL_CLOUD_DATA: 'x.json',
      MOOR_TOKEN: 't',
      MOOR_LATENCY: '20',
      MOOR_FAIL_RATE: '0.3',
      MOOR_RATE_LIMIT: '5',
    };
    expect(localCloudOptions({}, env)).toMatchObject({ port: 4010, dataFile: 'x.json', token: 't', latencyMs: 20, failRate: 0.3, rateLimit: 5 });
  });

  it('reads the pace of database-movement operations and of injected throttling from flags or their variables', () => {
    expect(localCloudOptions({}, { MOOR_LOCAL_CLOUD_ASYNC_MS: '20', MOOR_FAULT_RETRY_AFTER: '0' })).toMatchObject({
      operationPhaseMs: 20,
      faultRetryAfterSeconds: 0,
    });
    expect(localCloudOptions({ operationPhaseMs: '5', faultRetryAfter: '2' }, { MOOR_LOCAL_CLOUD_ASYNC_MS: '20' })).toMatchObject({
      operationPhaseMs: 5,
      faultRetryAfterSeconds: 2,
    });
    expect(localCloudOptions({}, {})).toMatchObject({ operationPhaseMs: undefined, faultRetryAfterSeconds: undefined });
  });

  it('lets a flag win over its variable and treats an empty variable as unset', () => {
    expect(localCloudOptions({ port: '5000' }, { MOOR_LOCAL_CLOUD_PORT: '4010', MOOR_TOKEN: '' })).toMatchObject({ port: 5000, token: undefined });
  });

  it.each([
    [{ port: '-1' }, '--port'],
    [{ port: '70000' }, '--port'],
    [{ port: 'abc' }, '--port'],
    [{ failRate: '1.5' }, '--fail-rate'],
    [{ latency: '-3' }, '--latency'],
    [{ rateLimit: '0' }, '--rate-limit'],
    [{ operationPhaseMs: '-1' }, '--operation-phase-ms'],
    [{ faultRetryAfter: 'soon' }, '--fault-retry-after'],
    [{ token: 'has space' }, '--token'],
  ])('refuses %o naming the flag', (flags, flag) => {
    expect(() => localCloudOptions(flags, {})).toThrow(UserError);
    expect(() => localCloudOptions(flags, {})).toThrow(flag);
  });

  it('never puts the token in an error message', () => {
    expect(() => localCloudOptions({ token: 'sekrit value' }, {})).not.toThrow(/sekrit/);
  });
});

// Limits from MOOR_MAX_* variables: read in the units docs/configuration.md gives, bad values refused.
import { describe, expect, it } from 'vitest';
import { UserError } from '../core/diagnostics.js';
import { transportSettings } from './transport-settings.js';

describe('transportSettings', () => {
  it('reads MB, pages and seconds', () => {
    expect(transportSettings({ MOOR_MAX_BODY_MB: '8', MOOR_MAX_PAGES: '50', MOOR_MAX_REQUEST_SECONDS: '60', MOOR_MAX_RETRY_AFTER_SECONDS: '0' })).toEqual({
      maxBodyBytes: 8 * 1024 * 1024,
      maxPages: 50,
      maxRequestMs: 60_000,
      maxRetryAfterMs: 0,
    });
  });

  it('leaves unset ones to the defaults', () => {
    expect(transportSettings({})).toEqual({ maxBodyBytes: undefined, maxPages: undefined, maxRequestMs: undefined, maxRetryAfterMs: undefined });
  });

  it('refuses a value that is not a number in range', () => {
    expect(() => transportSettings({ MOOR_MAX_PAGES: 'lots' })).toThrow(UserError);
    expect(() => transportSettings({ MOOR_MAX_BODY_MB: '0' })).toThrow(/MOOR_MAX_BODY_MB: expected a number above 0/);
  });
});

// The local cloud's token rules: its fixed token always, TOKEN.EXPIRY only with expiringTokens and before EXPIRY.
import { describe, expect, it } from 'vitest';
import { createTokenCheck } from '../../src/localcloud/token-check.js';

const now = new Date('2026-05-01T12:00:00Z');
const secs = now.getTime() / 1000;

describe('local cloud token check', () => {
  it('accepts the fixed token and refuses others', () => {
    const check = createTokenCheck({ token: 'tok', expiringTokens: false, now: () => now });
    expect(check('Bearer tok')).toBe('valid');
    expect(check('Bearer tok2')).toBe('invalid');
    expect(check(undefined)).toBe('invalid');
    expect(check(`Bearer tok.${secs + 10}`)).toBe('invalid');
  });

  it('with expiringTokens, TOKEN.EXPIRY is valid until EXPIRY, then expired', () => {
    const check = createTokenCheck({ token: 'tok', expiringTokens: true, now: () => now });
    expect(check(`Bearer tok.${secs + 1.5}`)).toBe('valid');
    expect(check(`Bearer tok.${secs}`)).toBe('expired');
    expect(check(`Bearer other.${secs + 10}`)).toBe('invalid');
    expect(check(`Bearer tok.soon`)).toBe('invalid');
  });
});

// Which bearer tokens the local cloud accepts: its fixed token, and with expiringTokens also
// `TOKEN.EXPIRY` (EXPIRY in unix seconds) until that time, to rehearse tokens that run out.
import { timingSafeEqual } from 'node:crypto';

export type TokenVerdict = 'valid' | 'invalid' | 'expired';

export interface TokenRules {
  readonly token: string;
  readonly expiringTokens: boolean;
  readonly now: () => Date;
}

/** A checker of Authorization headers; compares in constant time and never keeps what it saw. */
export function createTokenCheck(rules: TokenRules): (header: string | undefined) => TokenVerdict {
  const expected = Buffer.from(`Bearer ${rules.token}`);
  const expiringPrefix = `Bearer ${rules.token}.`;
  return (header) => {
    const given = Buffer.from(header ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return 'valid';
    if (!rules.expiringTokens || header === undefined) return 'invalid';
    const prefix = Buffer.from(header.slice(0, expiringPrefix.length));
    const wanted = Buffer.from(expiringPrefix);
    if (prefix.length !== wanted.length || !timingSafeEqual(prefix, wanted)) return 'invalid';
    const expiry = header.slice(expiringPrefix.length);
    if (!/^\d+(\.\d+)?$/.test(expiry)) return 'invalid';
    return rules.now().getTime() < Number(expiry) * 1000 ? 'valid' : 'expired';
  };
}

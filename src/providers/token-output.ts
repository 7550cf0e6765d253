// Reads what a tokenCommand printed: a bare token, or JSON with the token and when it expires
// (the shapes `az account get-access-token` and similar CLIs print).

/** A token and, when the command said so, its expiry (ms since the epoch). */
export interface IssuedToken {
  readonly value: string;
  readonly expiresAt?: number;
}

/** Why the output is not a usable token; the message never contains the output. */
export class TokenOutputError extends Error {}

const TOKEN_FIELDS = ['accessToken', 'access_token', 'token'] as const;

/** Parses the command's stdout; `now` turns a relative `expires_in` into a time. */
export function parseTokenOutput(stdout: string, now: number): IssuedToken {
  const text = stdout.trim();
  if (!text) throw new TokenOutputError('printed no token');
  if (!text.startsWith('{')) {
    if (/\s/.test(text)) throw new TokenOutputError('printed more than one word and no JSON; print the bare token or JSON with accessToken');
    return { value: text };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new TokenOutputError('printed text starting with { that is not valid JSON');
  }
  const fields = doc as Record<string, unknown>;
  const value = TOKEN_FIELDS.map((f) => fields[f]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (!value) throw new TokenOutputError(`printed JSON without ${TOKEN_FIELDS.join(', ')}`);
  return { value: value.trim(), expiresAt: expiryOf(fields, now) };
}

/**
 * expires_on: unix seconds (number or digits); expiresOn: a date text (az prints local time
 * without a zone, which Date.parse reads as local too) or unix seconds; expires_in: seconds from now.
 */
function expiryOf(fields: Record<string, unknown>, now: number): number | undefined {
  for (const name of ['expires_on', 'expiresOn', 'expires_at', 'expiresAt']) {
    const at = timeOf(fields[name]);
    if (at !== undefined) return at;
  }
  const inSeconds = Number(fields.expires_in ?? fields.expiresIn);
  return Number.isFinite(inSeconds) && inSeconds > 0 ? now + inSeconds * 1000 : undefined;
}

function timeOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return epochToMs(v);
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const text = v.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return epochToMs(Number(text));
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** Seconds, unless the number is too large to be seconds (then milliseconds). */
function epochToMs(n: number): number {
  return n > 1e11 ? n : n * 1000;
}

/**
 * Whether a token should be replaced before it is sent: within the renewal window of its
 * expiry (a third of its lifetime, at most two minutes, so short test tokens renew too).
 */
export function expiresSoon(token: IssuedToken, issuedAt: number, now: number): boolean {
  if (token.expiresAt === undefined) return false;
  const lifetime = Math.max(0, token.expiresAt - issuedAt);
  const window = Math.min(120_000, lifetime / 3);
  return now >= token.expiresAt - window;
}

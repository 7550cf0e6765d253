// The masker: registered secrets never reach output, in any of the forms output shows them.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MASK, Masker, maskedOutput } from './masker.js';

describe('Masker', () => {
  it('replaces every occurrence of a registered secret', () => {
    const m = new Masker();
    m.register('hunter2-pass');
    expect(m.mask('pw=hunter2-pass; again hunter2-pass.')).toBe(`pw=${MASK}; again ${MASK}.`);
  });

  it('masks the JSON-escaped and URL-encoded forms too', () => {
    const m = new Masker();
    m.register('pa"ss\\wo rd/1');
    expect(m.mask('{"secureValue":"pa\\"ss\\\\wo rd/1"}')).toBe(`{"secureValue":"${MASK}"}`);
    expect(m.mask('?p=pa%22ss%5Cwo%20rd%2F1')).toBe(`?p=${MASK}`);
  });

  it('masks a secret holding another whole, and treats regex characters literally', () => {
    const m = new Masker();
    m.register('abc$&.*def');
    m.register('abc$&.*def-longer');
    expect(m.mask('x abc$&.*def-longer y abc$&.*def z abcXXXdef')).toBe(`x ${MASK} y ${MASK} z abcXXXdef`);
  });

  it('ignores values too short to be secrets (they would hide ordinary words)', () => {
    const m = new Masker();
    m.register('true');
    m.register(undefined);
    expect(m.active).toBe(false);
    expect(m.mask('true')).toBe('true');
  });
});

describe('maskDeep', () => {
  it('masks every string of a JSON-like value and keeps the rest', () => {
    const m = new Masker();
    m.register('deep-secret-1');
    const at = new Date(0);
    const masked = m.maskDeep({ title: 'x', lines: ['error: deep-secret-1 echoed', 3], at, nested: { ok: true } });
    expect(masked).toEqual({ title: 'x', lines: [`error: ${MASK} echoed`, 3], at, nested: { ok: true } });
    expect(masked.at).toBe(at);
  });
});

describe('maskedOutput', () => {
  it('masks string and byte writes to the wrapped stream, and leaves the stream itself unwrapped', () => {
    const m = new Masker();
    const stream = new PassThrough();
    let out = '';
    stream.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const masked = maskedOutput(maskedOutput(stream, m), m); // masking twice masks once
    m.register('token-0123456789');
    masked.write('Bearer token-0123456789\n');
    masked.write(Buffer.from('bytes token-0123456789\n'));
    stream.write('raw token-0123456789\n');
    expect(out).toBe(`Bearer ${MASK}\nbytes ${MASK}\nraw token-0123456789\n`);
  });
});

// Reading a body within a limit: the rest is never read, an error unless truncation was asked for.
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, describeBytes, readLimited } from './response-limits.js';

/** A body of `chunks` chunks of `size` bytes, counting how many were pulled. */
function streamed(chunks: number, size: number, headers: Record<string, string> = {}): { res: Response; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks) {
        controller.close();
        return;
      }
      pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  return { res: new Response(body, { headers }), pulled: () => pulled };
}

describe('readLimited', () => {
  it('reads a body within the limit whole', async () => {
    const { res } = streamed(3, 10);
    expect((await readLimited(res, 30)).byteLength).toBe(30);
  });

  it('stops at the limit and throws, without reading the rest', async () => {
    const { res, pulled } = streamed(1000, 1024);
    await expect(readLimited(res, 4096)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(pulled()).toBeLessThan(10);
  });

  it('refuses at once a body whose content-length is over the limit', async () => {
    const { res, pulled } = streamed(10, 100, { 'content-length': '1000' });
    await expect(readLimited(res, 500)).rejects.toThrow('the answer is larger than 500 bytes; moor stopped reading it');
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it('with truncate, gives the first bytes of a longer body', async () => {
    const { res } = streamed(10, 100);
    expect((await readLimited(res, 250, true)).byteLength).toBe(250);
  });
});

describe('describeBytes', () => {
  it('names sizes in the largest whole unit', () => {
    expect(describeBytes(32 * 1024 * 1024)).toBe('32 MiB');
    expect(describeBytes(1536)).toBe('1536 bytes');
    expect(describeBytes(2048)).toBe('2 KiB');
  });
});

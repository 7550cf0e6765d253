import { appendFileSync, mkdtempSync, openSync, readFileSync, statSync, closeSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryFile } from './history-file.js';

const fresh = () => new HistoryFile(join(mkdtempSync(join(tmpdir(), 'moor-history-')), 'state.json.history'));

describe('HistoryFile', () => {
  it('appends runs in order and reads them back', async () => {
    const h = fresh();
    await h.append([{ n: 1 }], { keep: 10, maxBytes: 1 << 20 });
    await h.append([{ n: 2 }, { n: 3 }], { keep: 10, maxBytes: 1 << 20 });
    expect(await h.read()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('stays bounded: past keep runs it keeps only the newest keep', async () => {
    const h = fresh();
    for (let n = 1; n <= 10; n++) await h.append([{ n }], { keep: 10, maxBytes: 1 << 20 });
    expect((await h.read()).length).toBe(10);
    await h.append([{ n: 11 }, { n: 12 }], { keep: 10, maxBytes: 1 << 20 });
    expect((await h.read()).map((r) => r.n)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('passes over a line torn by a crash and starts the next run on a line of its own', async () => {
    const h = fresh();
    await h.append([{ n: 1 }], { keep: 10, maxBytes: 1 << 20 });
    appendFileSync(h.path, '{"n": 2, "tor');
    await h.append([{ n: 3 }], { keep: 10, maxBytes: 1 << 20 });
    expect(await h.read()).toEqual([{ n: 1 }, { n: 3 }]);
    expect(readFileSync(h.path, 'utf8').endsWith('{"n":3}\n')).toBe(true);
  });

  it('stays bounded by bytes too: past maxBytes it keeps the newest runs that fit, the newest one whatever its size', async () => {
    const h = fresh();
    const limit = { keep: 1000, maxBytes: 200 };
    for (let n = 1; n <= 20; n++) await h.append([{ n, pad: 'x'.repeat(20) }], limit);
    expect(statSync(h.path).size).toBeLessThanOrEqual(200);
    expect((await h.read(limit)).map((r) => r.n)).toEqual([16, 17, 18, 19, 20]); // 38 bytes each: five fit in 200
    await h.append([{ n: 21, pad: 'y'.repeat(500) }], limit);
    expect((await h.read(limit)).map((r) => r.n)).toEqual([21]);
  });

  it('a history of 600 MB (grown before the byte limit) is read and trimmed from its end, never loaded whole', async () => {
    const h = fresh();
    // Sparse: 600 MB that take no disk (runs long lost to a torn write, as far as reading goes), then two
    // runs; a string of 600 MB is past what V8 can make.
    const fd = openSync(h.path, 'w');
    writeSync(fd, '\n{"n":1}\n{"n":2}\n', 600 * 1024 * 1024);
    closeSync(fd);
    const limit = { keep: 1000, maxBytes: 1024 * 1024 };
    expect(await h.read(limit)).toEqual([{ n: 1 }, { n: 2 }]);
    await h.append([{ n: 3 }], limit);
    expect(statSync(h.path).size).toBeLessThanOrEqual(limit.maxBytes);
    expect(await h.read(limit)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });
});

import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryFile } from './history-file.js';

const fresh = () => new HistoryFile(join(mkdtempSync(join(tmpdir(), 'moor-history-')), 'state.json.history'));

describe('HistoryFile', () => {
  it('appends runs in order and reads them back', async () => {
    const h = fresh();
    await h.append([{ n: 1 }], 10);
    await h.append([{ n: 2 }, { n: 3 }], 10);
    expect(await h.read()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('stays bounded: past keep runs it keeps only the newest keep', async () => {
    const h = fresh();
    for (let n = 1; n <= 10; n++) await h.append([{ n }], 10);
    expect((await h.read()).length).toBe(10);
    await h.append([{ n: 11 }, { n: 12 }], 10);
    expect((await h.read()).map((r) => r.n)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('passes over a line torn by a crash and starts the next run on a line of its own', async () => {
    const h = fresh();
    await h.append([{ n: 1 }], 10);
    appendFileSync(h.path, '{"n": 2, "tor');
    await h.append([{ n: 3 }], 10);
    expect(await h.read()).toEqual([{ n: 1 }, { n: 3 }]);
    expect(readFileSync(h.path, 'utf8').endsWith('{"n":3}\n')).toBe(true);
  });
});

// A process killed in the middle of writing state leaves the old or the new document, never a torn one.
import { readdir, readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FileStateBackend } from '../../src/engine/state/file-backend.js';
import { JsonChild } from './child.js';
import { builtDistDir, fixture } from './built-state.js';

describe('atomic write under SIGKILL', () => {
  let dist: string;
  beforeAll(() => {
    dist = builtDistDir();
  });

  it('leaves a whole document after each of several kills mid-writes, with a serial no older than the last reported', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'moor-crash-')), 'state.json');
    let lastSerial = 0;
    for (let round = 0; round < 6; round++) {
      const writer = new JsonChild(fixture('writer.mjs'), [dist, path]);
      let reported = lastSerial;
      // Let it write a varying number of times, so the kill lands at different points of a write.
      for (let i = 0; i < 3 + round * 2; i++) {
        const line = await writer.nextLine();
        expect(line).toMatch(/^wrote \d+$/);
        reported = Number(line!.split(' ')[1]);
      }
      writer.proc.kill('SIGKILL');
      await writer.exited();
      const doc = JSON.parse(await readFile(path, 'utf8'));
      expect(doc.version).toBe(1);
      // Durable means: what the writer reported as written is on disk (it may have written one more).
      expect(doc.serial).toBeGreaterThanOrEqual(reported);
      expect(doc.extras.n).toBe(doc.serial - lastSerial);
      expect((await new FileStateBackend(path).read()).serial).toBe(doc.serial);
      lastSerial = doc.serial;
    }
    // Left-over temp files from killed writes never replace the state; they are only debris.
    const names = await readdir(dirname(path));
    expect(names).toContain('state.json');
  });
});

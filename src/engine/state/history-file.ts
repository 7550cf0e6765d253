// The history of applies beside a state file: one JSON line per run, appended, trimmed to the newest
// `keep` runs and `maxBytes` bytes. It is never read whole: reads and trims go backwards from its end.
import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isObject, type JsonObject } from '../../core/json.js';
import { code, sizeOf, syncDir, writeFileAtomic } from './atomic-write.js';
import { DEFAULT_HISTORY_LIMIT, type HistoryLimit } from './types.js';

/** How much of the file one read takes, going backwards. */
const CHUNK_BYTES = 1024 * 1024;
/** The newest run is kept whatever the byte limit, up to this (a longer line is passed over, as a torn one is). */
const MAX_LINE_BYTES = 256 * 1024 * 1024;

/**
 * `state.json.history`. Kept apart from the state document: a run recorded moves no serial (a saved
 * plan stays valid) and the state file does not grow with the history. A line that is not a JSON
 * object (torn by a crash) is passed over.
 */
export class HistoryFile {
  constructor(readonly path: string) {}

  /** The newest runs within `limit`, oldest first; the rest of a file larger than that is never read. */
  async read(limit: HistoryLimit = DEFAULT_HISTORY_LIMIT): Promise<JsonObject[]> {
    const lines = await this.newestLines(limit);
    return lines.reverse().flatMap(runOf);
  }

  /**
   * Appends runs (durably), one line each; once the file holds more than `limit.keep` runs or
   * `limit.maxBytes` bytes, it is rewritten atomically with the newest that fit (the newest run always).
   */
  async append(runs: readonly JsonObject[], limit: HistoryLimit): Promise<void> {
    const size = await sizeOf(this.path);
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const handle = await open(this.path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
    let lines = 0;
    let total = size;
    try {
      // After a line torn by a crash, start on a line of our own.
      const lead = size > 0 && !(await endsWithNewline(handle, size)) ? '\n' : '';
      const text = lead + runs.map((r) => JSON.stringify(r) + '\n').join('');
      await handle.write(text);
      await handle.datasync();
      total += Buffer.byteLength(text);
      // Within the byte budget counting its lines is cheap; beyond it, it is trimmed anyway.
      if (total <= limit.maxBytes) lines = await countLines(handle, total);
    } finally {
      await handle.close();
    }
    if (size === 0) await syncDir(dirname(this.path));
    if (total > limit.maxBytes || lines > limit.keep) {
      const kept = (await this.newestLines(limit)).reverse();
      await writeFileAtomic(this.path, kept.map((l) => l + '\n').join(''));
    }
  }

  /**
   * The newest complete lines, newest first, up to `keep` of them and `maxBytes` in all (the newest
   * one whatever its size), read backwards from the end of the file in chunks.
   */
  private async newestLines(limit: HistoryLimit): Promise<string[]> {
    let handle;
    try {
      handle = await open(this.path, 'r');
    } catch (err) {
      if (code(err) === 'ENOENT') return [];
      throw err;
    }
    try {
      const lines: string[] = [];
      let bytes = 0;
      let position = (await handle.stat()).size;
      // The line being read, from where reading got to up to its end (chunks newest first), unless it
      // is known to be too long to keep.
      let partial: Buffer[] = [];
      let partialBytes = 0;
      let skipping = false;
      /** The most a line may have and still be kept: what is left of the budget; the newest, any size up to MAX_LINE_BYTES. */
      const room = () => (lines.length === 0 ? MAX_LINE_BYTES : limit.maxBytes - bytes - 1);
      /** false: the budget is spent, nothing older is kept. */
      const ended = (): boolean => {
        const line = Buffer.concat(partial);
        const skipped = skipping;
        partial = [];
        partialBytes = 0;
        skipping = false;
        if (skipped) return lines.length === 0;
        if (line.length === 0) return true;
        if (lines.length >= limit.keep || line.length > room()) return false;
        lines.push(line.toString('utf8'));
        bytes += line.length + 1;
        return true;
      };
      while (position > 0) {
        const length = Math.min(CHUNK_BYTES, position);
        position -= length;
        const chunk = Buffer.alloc(length);
        await handle.read(chunk, 0, length, position);
        let end = length;
        for (let i = length - 1; i >= 0; i--) {
          if (chunk[i] !== 0x0a) continue;
          if (!skipping) partial.unshift(chunk.subarray(i + 1, end));
          end = i;
          if (!ended()) return lines;
        }
        if (skipping) continue;
        partial.unshift(chunk.subarray(0, end));
        partialBytes += end;
        // A line longer than can be kept is not gathered (a newest one past MAX_LINE_BYTES is passed over, as a torn one is).
        if (partialBytes > room()) {
          if (lines.length > 0) return lines;
          partial = [];
          skipping = true;
        }
      }
      ended();
      return lines;
    } finally {
      await handle.close();
    }
  }
}

function runOf(line: string): JsonObject[] {
  try {
    const v: unknown = JSON.parse(line);
    return isObject(v) ? [v] : [];
  } catch {
    // a line cut short by a crash: the run it held is lost, the others stand
    return [];
  }
}

async function endsWithNewline(handle: import('node:fs/promises').FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/**
 * Lines in a file no larger than the history's byte budget, counted a chunk at a time. The buffer is as
 * large as the file (up to a chunk) and not zeroed: a 1 MiB zeroed buffer on every apply cost more than
 * counting a small history.
 */
async function countLines(handle: import('node:fs/promises').FileHandle, size: number): Promise<number> {
  const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK_BYTES, size)));
  let lines = 0;
  for (let position = 0; ;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return lines;
    const read = chunk.subarray(0, bytesRead);
    for (let i = read.indexOf(0x0a); i !== -1; i = read.indexOf(0x0a, i + 1)) lines++;
    position += bytesRead;
  }
}

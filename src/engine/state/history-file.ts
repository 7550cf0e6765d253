// The history of applies beside a state file: one JSON line per run, appended, trimmed to the newest `keep`.
import { constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isObject, type JsonObject } from '../../core/json.js';
import { code, syncDir, writeFileAtomic } from './atomic-write.js';

/**
 * `state.json.history`. Kept apart from the state document: a run recorded moves no serial (a saved
 * plan stays valid) and the state file does not grow with the history. A line that is not a JSON
 * object (torn by a crash) is passed over.
 */
export class HistoryFile {
  constructor(readonly path: string) {}

  async read(): Promise<JsonObject[]> {
    return runsOf(await this.text());
  }

  /**
   * Appends runs (durably), one line each; once there are more than `keep`, the file is rewritten
   * atomically with the newest `keep` only.
   */
  async append(runs: readonly JsonObject[], keep: number): Promise<void> {
    const text = await this.text();
    const all = [...runsOf(text), ...runs];
    if (all.length > keep) {
      await writeFileAtomic(this.path, all.slice(all.length - keep).map((r) => JSON.stringify(r) + '\n').join(''));
      return;
    }
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const handle = await open(this.path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
    try {
      // After a line torn by a crash, start on a line of our own.
      const lead = text !== '' && !text.endsWith('\n') ? '\n' : '';
      await handle.write(lead + runs.map((r) => JSON.stringify(r) + '\n').join(''));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    if (text === '') await syncDir(dirname(this.path));
  }

  private async text(): Promise<string> {
    try {
      return await readFile(this.path, 'utf8');
    } catch (err) {
      if (code(err) === 'ENOENT') return '';
      throw err;
    }
  }
}

function runsOf(text: string): JsonObject[] {
  const runs: JsonObject[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const v: unknown = JSON.parse(line);
      if (isObject(v)) runs.push(v);
    } catch {
      // a line cut short by a crash: the run it held is lost, the others stand
    }
  }
  return runs;
}

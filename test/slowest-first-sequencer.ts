// The order test files start in: the longest first, so the last files to finish are short ones and
// both cores stay busy to the end. Durations come from vitest's cache of the last run; a fresh
// clone has none, so there files that start processes (most of the suite's time) go first.
// Files that mostly wait (test/file-cpu-share.ts) are spread out: when three of the four workers ran
// one at once, the cores sat idle for seconds.
import { statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { lastShares } from './file-cpu-share.js';
import { filesStartingProcesses } from './process-starting-files.js';

/**
 * A file that kept a CPU busy less than this part of the median file's share mostly waits (relative: a run beside
 * other work, as `npm run test:stress`, records lower shares for every file).
 */
const WAITING_OF_MEDIAN = 0.9;
/** Two waiting files beside two busy ones still keep two cores busy; a third would leave one idle. */
const MAX_WAITING_AT_ONCE = 2;

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const path = (spec: TestSpecification) => spec.moduleId.slice(root.length + 1);
    const lastDuration = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${path(spec)}`)?.duration;
    // Read from the files only when a duration is missing (a fresh clone, a new file): it reads every test file.
    let processFiles: Set<string> | undefined;
    const startsProcesses = (spec: TestSpecification) => ((processFiles ??= new Set(filesStartingProcesses(root, ['src', 'test']))).has(path(spec)) ? 1 : 0);
    const size = (spec: TestSpecification) => statSync(spec.moduleId).size;
    const longestFirst = [...files].sort((a, b) => {
      const [da, db] = [lastDuration(a), lastDuration(b)];
      if (da !== undefined && db !== undefined) return db - da;
      return startsProcesses(b) - startsProcesses(a) || size(b) - size(a);
    });
    const shares = lastShares();
    const threshold = WAITING_OF_MEDIAN * median([...shares.values()]);
    const waits = (spec: TestSpecification) => (shares.get(path(spec)) ?? Infinity) < threshold;
    return spreadWaiting(longestFirst, (spec) => lastDuration(spec) ?? 0, waits, this.ctx.config.maxWorkers);
  }
}

/** The middle of `values` (0 when there are none). */
function median(values: number[]): number {
  const sorted = values.sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
}

/**
 * The files in `longestFirst` order, except that a waiting file is put off while MAX_WAITING_AT_ONCE of them
 * would run (as the last run's durations play out over `workers` workers, each taking the next file when free).
 */
export function spreadWaiting<F>(longestFirst: readonly F[], duration: (file: F) => number, waits: (file: F) => boolean, workers: number): F[] {
  const left = [...longestFirst];
  const order: F[] = [];
  let running: { end: number; waits: boolean }[] = [];
  let now = 0;
  while (left.length > 0) {
    if (running.length >= workers) {
      now = Math.min(...running.map((r) => r.end));
      const ended = running.findIndex((r) => r.end === now);
      running = running.filter((_, i) => i !== ended);
    }
    const full = running.filter((r) => r.waits).length >= MAX_WAITING_AT_ONCE;
    const next = full
      ? Math.max(
          0,
          left.findIndex((f) => !waits(f)),
        )
      : 0;
    const [file] = left.splice(next, 1);
    order.push(file);
    running.push({ end: now + duration(file), waits: waits(file) });
  }
  return order;
}

// The order test files start in: the longest first, so the last files to finish are short ones and
// both cores stay busy to the end. Durations come from vitest's cache of the last run; a fresh
// clone has none, so there files that start processes (most of the suite's time) go first.
import { statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { filesStartingProcesses } from './process-starting-files.js';

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const path = (spec: TestSpecification) => spec.moduleId.slice(root.length + 1);
    const lastDuration = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${path(spec)}`)?.duration;
    // Read from the files only when a duration is missing (a fresh clone, a new file): it reads every test file.
    let processFiles: Set<string> | undefined;
    const startsProcesses = (spec: TestSpecification) => ((processFiles ??= new Set(filesStartingProcesses(root, ['src', 'test']))).has(path(spec)) ? 1 : 0);
    const size = (spec: TestSpecification) => statSync(spec.moduleId).size;
    return [...files].sort((a, b) => {
      const [da, db] = [lastDuration(a), lastDuration(b)];
      if (da !== undefined && db !== undefined) return db - da;
      return startsProcesses(b) - startsProcesses(a) || size(b) - size(a);
    });
  }
}

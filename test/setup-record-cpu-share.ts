// vitest setup file (run in the worker before each test file, its import included): records how busy
// the file kept a CPU (test/file-cpu-share.ts) once its last hook has run.
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';
import { measureFile } from './file-cpu-share.js';

const done = measureFile();
afterAll(() =>
  done(
    relative(`${import.meta.dirname}/..`, expect.getState().testPath ?? '')
      .split('\\')
      .join('/'),
  ),
);

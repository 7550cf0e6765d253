// A test run makes about 1,250 temporary folders (the tests', and those of the CLIs and local clouds they
// start), which were left in the machine's temporary folder: run after run, they filled the disk. Now the
// workers get one folder of the run's as TMPDIR, which every process they start inherits, and it is
// removed when the run ends; MOOR_TEST_KEEP_TMP=1 keeps it, for a look after a failure. vitest's own
// process keeps the machine's: what its global setups make there outlives a run on purpose (the
// packaged Chromium, unpacked once) or is removed by their teardowns (the throwaway PostgreSQL).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Names the run's folder in the environment of vitest's process, which reads its config more than once. */
const RUN_FOLDER = 'MOOR_TEST_RUN_TMPDIR';

/** A new folder for this run's workers, removed when this process exits (unless kept). */
export function runTempFolder(): string {
  const made = process.env[RUN_FOLDER];
  if (made !== undefined) return made;
  const folder = mkdtempSync(join(tmpdir(), 'moor-test-run-'));
  process.env[RUN_FOLDER] = folder;
  if (process.env.MOOR_TEST_KEEP_TMP === '1') {
    process.on('exit', () => process.stderr.write(`the run's temporary files are kept in ${folder}\n`));
  } else {
    process.on('exit', () => remove(folder));
  }
  return folder;
}

/** Removes the folder without holding up the exit (about a second), in a process of its own where there is an rm. */
function remove(folder: string): void {
  if (process.platform === 'win32') rmSync(folder, { recursive: true, force: true });
  else spawn('rm', ['-rf', folder], { detached: true, stdio: 'ignore' }).unref();
}

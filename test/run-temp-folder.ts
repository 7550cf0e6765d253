// A test run makes about 1,250 temporary folders (the tests', and those of the CLIs and local clouds they
// start), which were left in the machine's temporary folder: run after run, they filled the disk. Now
// they are made in one folder of the run's (TMPDIR, which the workers and every process they start
// inherit), removed when the run ends; MOOR_TEST_KEEP_TMP=1 keeps it, for a look after a failure.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Names the run's folder in the environment of the run's process (vitest reads its config more than once). */
const RUN_FOLDER = 'MOOR_TEST_RUN_TMPDIR';

/** Points TMPDIR at a new folder for this run, removed when this process exits (unless kept); returns it. */
export function useRunTempFolder(): string {
  const made = process.env[RUN_FOLDER];
  if (made !== undefined && process.env.TMPDIR === made) return made;
  const folder = mkdtempSync(join(tmpdir(), 'moor-test-run-'));
  // As open as the folder it stands for: the tests' PostgreSQL runs as another user when they run as root.
  chmodSync(folder, 0o1777);
  process.env[RUN_FOLDER] = folder;
  process.env.TMPDIR = folder;
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

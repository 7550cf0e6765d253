// How busy each test file keeps a CPU, recorded by every run for the next one's order
// (test/slowest-first-sequencer.ts): the CPU time of the worker and of the processes it started and
// waited for, over the file's wall time. A file that mostly waits (intervals, leases, a rate limit)
// has a low share; when several of those ran at once, the two cores sat idle.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const RECORD = join(import.meta.dirname, '../node_modules/.cache/moor-tests/file-cpu-share.jsonl');

/** CPU seconds of this process and of its children that ended (Linux's /proc; elsewhere this process's alone). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  if (existsSync('/proc/self/stat')) {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // After the command's name, in parentheses: state is field 0, cutime 13 and cstime 14, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  }
  return (own.user + own.system) / 1e6 + children;
}

/** Starts measuring a test file; the returned function appends the share of `file` (from the root) to the record. */
export function measureFile(): (file: string) => void {
  const [cpu0, wall0] = [cpuSeconds(), performance.now()];
  return (file) => {
    const wall = (performance.now() - wall0) / 1000;
    if (wall <= 0) return;
    mkdirSync(dirname(RECORD), { recursive: true });
    appendFileSync(RECORD, `${JSON.stringify({ file, share: (cpuSeconds() - cpu0) / wall })}\n`);
  };
}

/**
 * Each file's share in the last run that recorded it; the record is rewritten to those lines, so it does not
 * grow run after run. Empty when there is none yet (a fresh clone); a line that does not parse (cut short by a
 * killed run) is passed over.
 */
export function lastShares(): Map<string, number> {
  const shares = new Map<string, number>();
  if (!existsSync(RECORD)) return shares;
  for (const line of readFileSync(RECORD, 'utf8').split('\n')) {
    const recorded = parsedLine(line);
    if (recorded) shares.set(recorded.file, recorded.share);
  }
  writeFileSync(RECORD, [...shares].map(([file, share]) => `${JSON.stringify({ file, share })}\n`).join(''));
  return shares;
}

function parsedLine(line: string): { file: string; share: number } | undefined {
  try {
    const value = JSON.parse(line) as { file?: unknown; share?: unknown };
    return typeof value.file === 'string' && typeof value.share === 'number' ? { file: value.file, share: value.share } : undefined;
  } catch {
    return undefined;
  }
}

// Whether a process of this host still runs: how stale locks and left-over temp files are recognised.
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EPERM';
  }
}

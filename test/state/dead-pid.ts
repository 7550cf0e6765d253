// Test helper: a pid for lock and temp files of a process that no longer runs on this host.

/** A pid no process can have: above the largest pid Linux (2^22) and macOS (99998) give out. */
export const DEAD_PID = 2 ** 22 + 1;

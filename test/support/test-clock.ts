// A clock a test moves instead of waiting: the system's time plus what the test has advanced it by.
// An in-process local cloud reads it (harness: startCloud({ clock })), so a test can keep a group
// provisioning, or a database operation in a phase, for as long as it needs and end it at once.

export interface TestClock {
  /** The clock's time: the system's, moved on by every advance so far. */
  readonly now: () => Date;
  /** Moves the clock on by `ms` milliseconds, at once. */
  readonly advance: (ms: number) => void;
}

export function testClock(): TestClock {
  let advanced = 0;
  return {
    now: () => new Date(Date.now() + advanced),
    advance: (ms) => {
      advanced += ms;
    },
  };
}

// Runs that must not overlap: a service may take one operation at a time per target (a database
// environment), and refuses a second one it would otherwise be sent, wasting a run of the day.
/** Serialises work per key; work holding several keys takes them in sorted order (no deadlock). */
export class ExclusiveRuns {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once no earlier work holding any of `keys` is still running (at once when none is). */
  async run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    for (const key of [...new Set(keys)].sort()) {
      const { release, after } = this.take(key);
      releases.push(release);
      if (after) await after;
    }
    try {
      return await work();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  /** Queues behind the key's current holder; `after` is undefined when the key is free. */
  private take(key: string): { release: () => void; after?: Promise<void> } {
    const previous = this.tails.get(key);
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous ? previous.then(() => mine) : mine;
    this.tails.set(key, tail);
    return {
      after: previous,
      release: () => {
        release();
        if (this.tails.get(key) === tail) this.tails.delete(key);
      },
    };
  }
}

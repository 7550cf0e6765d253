// Runs that must not overlap: a service may take one operation at a time per target (a database
// environment), and refuses a second one it would otherwise be sent, wasting a run of the day.
/** Serialises work per key; work holding several keys takes them in sorted order (no deadlock). */
export class ExclusiveRuns {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once no earlier work holding any of `keys` is still running. */
  async run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const releases: Array<() => void> = [];
    for (const key of [...new Set(keys)].sort()) releases.push(await this.acquire(key));
    try {
      return await work();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => { release = resolve; });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}

// A binary heap: the most urgent entry first in O(log n) (request queues, ready graph steps).
export class PriorityQueue<T> {
  private readonly items: T[] = [];

  /** `before(a, b)`: a is taken before b. */
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(a[i], a[parent])) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a[a.length - 1];
    a.pop();
    if (a.length > 0) {
      a[0] = last;
      this.sinkFrom(0);
    }
    return top;
  }

  private sinkFrom(start: number): void {
    const a = this.items;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < a.length && this.before(a[l], a[best])) best = l;
      if (r < a.length && this.before(a[r], a[best])) best = r;
      if (best === i) return;
      [a[i], a[best]] = [a[best], a[i]];
      i = best;
    }
  }
}

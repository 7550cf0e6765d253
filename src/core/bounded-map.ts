// A map that empties itself when it reaches its bound: for memos of values that are cheap to compute again
// (a parse, a hash), whose keys a runaway input could otherwise grow without end.
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #bound: number;

  constructor(bound: number) {
    super();
    this.#bound = bound;
  }

  override set(key: K, value: V): this {
    if (this.size >= this.#bound && !this.has(key)) this.clear();
    return super.set(key, value);
  }

  /** The value kept for `key`, or `make()`'s, kept from now on. */
  getOrMake(key: K, make: () => V): V {
    if (this.has(key)) return this.get(key) as V;
    const value = make();
    this.set(key, value);
    return value;
  }
}

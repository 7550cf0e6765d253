// One string for each distinct text of strings a big run builds over and over (the field paths of
// a create: 100,000 container groups build the same dozen paths 100,000 times). The strings are
// equal either way; a pooled one is held once however many changes hold it.

export class StringPool {
  private readonly pool = new Map<string, string>();

  /** `limit`: past this many distinct texts new ones are returned unpooled, so the pool stays bounded. */
  constructor(private readonly limit = 10_000) {}

  /** The pooled string equal to `text`. */
  intern(text: string): string {
    const pooled = this.pool.get(text);
    if (pooled !== undefined) return pooled;
    if (this.pool.size < this.limit) this.pool.set(text, text);
    return text;
  }
}

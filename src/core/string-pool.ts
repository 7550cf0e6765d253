// One string for each distinct text of strings a big run builds over and over (the field paths of
// a create: 100,000 container groups build the same dozen paths 100,000 times). The strings are
// equal either way; a pooled one is held once however many changes hold it.

export interface StringPoolOptions {
  /** Past this many distinct texts new ones are returned unpooled, so the pool stays bounded. */
  readonly limit?: number;
  /**
   * Pool a copy of each text, not the text itself: a value sliced from a file's text would keep
   * the whole text alive in V8 (a sliced string holds its parent) for as long as the value lives.
   */
  readonly detach?: boolean;
}

export class StringPool {
  private readonly pool = new Map<string, string>();
  private readonly limit: number;
  private readonly detach: boolean;

  constructor(options: StringPoolOptions = {}) {
    this.limit = options.limit ?? 10_000;
    this.detach = options.detach ?? false;
  }

  /** The pooled string equal to `text`. */
  intern(text: string): string {
    const pooled = this.pool.get(text);
    if (pooled !== undefined) return pooled;
    if (this.pool.size >= this.limit) return text;
    const kept = this.detach ? detached(text) : text;
    this.pool.set(kept, kept);
    return kept;
  }
}

/** V8 copies slices shorter than this (SlicedString::kMinLength); longer ones point into their parent. */
const SHORTEST_SLICE = 13;

/** A string equal to `text` that shares no storage with the string it was sliced from. */
function detached(text: string): string {
  return text.length < SHORTEST_SLICE ? text : (JSON.parse(JSON.stringify(text)) as string);
}

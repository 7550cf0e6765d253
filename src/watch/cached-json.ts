// moor watch: a JSON answer made again only when what it shows changed. /api/status of 10,000
// resources takes tens of milliseconds to serialize and is over a megabyte; pages and scrapers ask far
// more often than the stacks change (a cycle, a schedule, a lease), so between changes the same text
// (and, for clients that take it, the same gzip of it) is served.
import { gzipSync } from 'node:zlib';

/** A JSON document as served: its text, and its gzip made on first demand. */
export interface JsonAnswer {
  readonly text: string;
  gzipped(): Buffer;
}

export class CachedJson {
  private key: string | undefined;
  private made: JsonAnswer | undefined;

  /** `keyOf` is cheap and changes whenever `make` would give another document. */
  constructor(
    private readonly keyOf: () => string,
    private readonly make: () => unknown,
  ) {}

  answer(): JsonAnswer {
    const key = this.keyOf();
    if (key !== this.key || !this.made) {
      this.made = jsonAnswer(JSON.stringify(this.make()) + '\n');
      this.key = key;
    }
    return this.made;
  }
}

function jsonAnswer(text: string): JsonAnswer {
  let zipped: Buffer | undefined;
  // Level 1: a megabyte of repetitive JSON shrinks about tenfold in a few milliseconds.
  return { text, gzipped: () => (zipped ??= gzipSync(text, { level: 1 })) };
}

const ids = new WeakMap<object, number>();
let nextId = 1;

/** A number naming an object for a cache key (the same object, the same number; none: 0). */
export function identityOf(value: object | undefined): number {
  if (!value) return 0;
  let id = ids.get(value);
  if (id === undefined) {
    id = nextId++;
    ids.set(value, id);
  }
  return id;
}

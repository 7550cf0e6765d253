// Masks secret values in everything moor writes, as CI systems mask secrets: registered where found, applied at the output edge.

/** What a masked secret reads as. */
export const MASK = '***';

/**
 * Shorter values are not masked: they would hide ordinary words and numbers all over the output
 * (a real secret is longer).
 */
export const MIN_SECRET_LENGTH = 6;

/** A set of secret texts and the replacement of each in a text. */
export class Masker implements SecretRegistry {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;
  private registered = 0;

  /**
   * Registers a secret: its text and the forms output may show it in (JSON-escaped, also twice: a
   * service's message that echoes a JSON body, served inside a JSON document; URL-encoded).
   */
  register(value: string | undefined): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
    const escaped = JSON.stringify(value).slice(1, -1);
    const forms = [value, escaped, JSON.stringify(escaped).slice(1, -1), encodeURIComponent(value)];
    let added = false;
    for (const f of forms) {
      if (!this.secrets.has(f)) {
        this.secrets.add(f);
        added = true;
      }
    }
    if (added) {
      this.pattern = undefined;
      this.registered++;
    }
  }

  /** Grows with every secret registered: a text masked at an earlier generation is masked again. */
  get generation(): number {
    return this.registered;
  }

  /** Whether any secret is registered (the output edge skips work otherwise). */
  get active(): boolean {
    return this.secrets.size > 0;
  }

  /** The text with every registered secret replaced by ***. */
  mask(text: string): string {
    if (this.secrets.size === 0 || text.length === 0) return text;
    return text.replace(this.regex(), MASK);
  }

  /** A copy of a JSON-like value with every string masked (for output that is not a stream, e.g. a chat message). */
  maskDeep<T>(value: T): T {
    if (this.secrets.size === 0) return value;
    return walkStrings(value, (s) => this.mask(s)) as T;
  }

  private regex(): RegExp {
    // Longest first, so a secret containing another is masked whole.
    this.pattern ??= new RegExp(
      [...this.secrets]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    return this.pattern;
  }
}

function walkStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => walkStrings(v, fn));
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walkStrings(v, fn)]));
  }
  return value;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where a run's secrets are registered as they are found (placeholders resolved, tokens obtained,
 * URLs parsed): the run's masker, owned by its session, which its output edge masks with. Two runs
 * in one process have two.
 */
export interface SecretRegistry {
  register(value: string | undefined): void;
}

/** A stream a run writes text to (stdout, stderr); a terminal's also has its width. */
export interface OutputStream {
  write(chunk: string | Uint8Array, encoding?: BufferEncoding): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** `stream` with every write masked by `m`: the run's output edge (the stream itself is left as it is). */
export function maskedOutput(stream: OutputStream, m: Masker): OutputStream {
  return {
    write: (chunk, encoding) => stream.write(maskChunk(chunk, encoding, m), encoding),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
  };
}

function maskChunk(chunk: string | Uint8Array, encoding: unknown, m: Masker): string | Uint8Array {
  if (!m.active) return chunk;
  if (typeof chunk === 'string') {
    // A string in another encoding (hex, base64) is data, not text moor wrote.
    if (typeof encoding === 'string' && !/^utf-?8$/i.test(encoding)) return chunk;
    return m.mask(chunk);
  }
  if (chunk instanceof Uint8Array) {
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    const masked = m.mask(text);
    return masked === text ? chunk : Buffer.from(masked, 'utf8');
  }
  return chunk;
}

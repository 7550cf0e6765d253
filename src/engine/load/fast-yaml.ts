// A fast reader for the plain subset of YAML that manifests use; anything else is left to the `yaml` package.
//
// `yaml` keeps a full syntax tree and reads about 2 MB/s here, too slow for 10,000 manifests.
// This reader handles block maps and lists, one-line flow collections, plain and quoted
// one-line scalars and comments, producing exactly what `yaml` would (core schema). On
// anything outside that subset (anchors, tags, block scalars, multi-line scalars, duplicate
// keys, odd indentation, unusual characters, keys near yaml's length limit...) it gives up and
// the caller parses the file with `yaml` instead: when in doubt, `yaml` decides. The
// differential tests (one-yaml-semantics.test.ts) hold it to that on damaged and generated text.
import { StringPool } from '../../core/string-pool.js';

export interface FastDocument {
  readonly value: unknown;
  /** Offset of the document's first character of content (its root node). */
  readonly offset: number;
}

class Unsupported extends Error {}

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
/** First characters of the plain scalars that the core schema may read as null, boolean or number. */
const SPECIAL_START = new Set('0123456789+-.~nNtTfF');
/** Characters that start something other than a plain scalar. */
const INDICATOR = new Set(['&', '*', '!', '|', '>', '%', '@', '`', ',', '[', ']', '{', '}', '#', '"', "'"]);
/**
 * Characters whose handling differs in subtle ways (tabs; control characters; a lone CR, a line
 * break to `yaml`; Unicode spaces and a BOM, which `yaml` keeps but String#trim drops; line and
 * paragraph separators): a text holding any of them goes to `yaml`, which decides.
 */
const UNUSUAL = /[\x00-\x09\x0B\x0C\x0E-\x1F\x7F-\xA0\u1680\u180E\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\uFEFF\uFFF9-\uFFFF]|\r(?!\n)/;
/** `yaml` refuses an implicit key whose `:` is more than 1,024 characters after its start; keep well clear. */
const MAX_KEY_SPAN = 1000;
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', f: '\f' };

interface Line {
  start: number;
  end: number;
  indent: number;
  content: number;
}

/** The documents of `text`, or undefined when it uses YAML beyond the subset. */
export function parseFast(text: string): FastDocument[] | undefined {
  if (UNUSUAL.test(text)) return undefined;
  try {
    const strings = new StringPool({ detach: true });
    return splitDocuments(text).flatMap((lines) => (lines.length === 0 ? [] : [new Reader(text, lines, strings).document()]));
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

function unsupported(): never {
  throw new Unsupported();
}

/** Significant lines (not blank, not comment-only) of each document. */
function splitDocuments(text: string): Line[][] {
  const docs: Line[][] = [[]];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const next = end + 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    let content = start;
    while (content < end && text.charCodeAt(content) === 32) content++;
    if (content < end && text[content] !== '#') {
      if (content === start && (text.startsWith('---', start) || text.startsWith('...', start) || text[start] === '%')) {
        // Only a bare "---" (or "--- # comment") is taken; "---x", "...", directives are not.
        const rest = text.slice(start + 3, end);
        if (!text.startsWith('---', start) || !(rest === '' || /^ +(#.*)?$/.test(rest))) unsupported();
        docs.push([]);
      } else {
        docs[docs.length - 1].push({ start, end, indent: content - start, content });
      }
    }
    start = next;
  }
  return docs;
}

class Reader {
  private i = 0;

  /** `strings`: the file's documents share one string per value text (100 groups in a file say `westeurope` once). */
  constructor(
    private readonly text: string,
    private readonly lines: Line[],
    private readonly strings: StringPool,
  ) {}

  document(): FastDocument {
    const first = this.lines[0];
    if (!this.isSeqEntry(first) && !this.scanKey(first.content, first.end)) unsupported();
    const value = this.block(first.indent);
    if (this.i < this.lines.length) unsupported();
    return { value, offset: first.content };
  }

  private block(indent: number): unknown {
    const line = this.lines[this.i];
    if (this.isSeqEntry(line)) return this.seq(indent);
    if (this.scanKey(line.content, line.end)) return this.map(indent);
    return unsupported();
  }

  private isSeqEntry(line: Line): boolean {
    return this.text[line.content] === '-' && (line.content + 1 === line.end || this.text[line.content + 1] === ' ');
  }

  private map(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (line.indent !== indent || this.isSeqEntry(line)) break;
      const key = this.scanKey(line.content, line.end) ?? unsupported();
      if (Object.prototype.hasOwnProperty.call(out, key.key)) unsupported();
      out[key.key] = this.valueAfter(key.after, line, indent, true);
    }
    return out;
  }

  private seq(indent: number): unknown[] {
    const out: unknown[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (line.indent !== indent || !this.isSeqEntry(line)) break;
      const p = this.skipSpaces(line.content + 1, line.end);
      if (p < line.end && this.text[p] === '-' && (p + 1 === line.end || this.text[p + 1] === ' ')) unsupported();
      if (p < line.end && this.text[p] !== '#' && this.scanKey(p, line.end)) {
        // "- key: value": a mapping whose column is that of its first key.
        line.indent = p - line.start;
        line.content = p;
        out.push(this.map(line.indent));
      } else {
        out.push(this.valueAfter(p, line, indent, false));
      }
    }
    return out;
  }

  /** The value that starts at `p` on `line` (or on the lines below it). */
  private valueAfter(p: number, line: Line, indent: number, inMap: boolean): unknown {
    const from = this.skipSpaces(p, line.end);
    this.i++;
    if (from >= line.end || this.text[from] === '#') {
      const next = this.lines[this.i] as Line | undefined; // none after the last line
      if (next && next.indent > indent) return this.block(next.indent);
      if (inMap && next?.indent === indent && this.isSeqEntry(next)) return this.seq(indent);
      return null;
    }
    const value = this.inline(from, line.end);
    const next = this.lines[this.i] as Line | undefined; // none after the last line
    if (next && next.indent > indent) unsupported();
    return value;
  }

  private inline(p: number, end: number): unknown {
    const c = this.text[p];
    let value: unknown;
    let after: number;
    if (c === '[' || c === '{') {
      ({ value, after } = this.flow(p, end));
    } else if (c === '"' || c === "'") {
      ({ value, after } = this.quoted(p, end));
    } else {
      return this.pooled(resolvePlain(this.plainBlock(p, end)));
    }
    const spaced = this.skipSpaces(after, end);
    // A comment needs a space before it: `"x"#c` is an error to `yaml`.
    if (spaced < end && (this.text[spaced] !== '#' || spaced === after)) unsupported();
    return this.pooled(value);
  }

  private pooled(value: unknown): unknown {
    return typeof value === 'string' ? this.strings.intern(value) : value;
  }

  private plainBlock(p: number, end: number): string {
    if (!startsPlain(this.text, p, end)) unsupported();
    let stop = p;
    while (stop < end && !(this.text[stop] === '#' && this.text[stop - 1] === ' ')) stop++;
    const raw = trimSpaces(this.text.slice(p, stop));
    if (raw.includes(': ') || raw.endsWith(':')) unsupported();
    return raw;
  }

  /** A map key at `p`: its text and the offset after its colon, or undefined if none is there. */
  private scanKey(p: number, end: number): { key: string; after: number } | undefined {
    const c = this.text[p];
    if (c === '"' || c === "'") {
      const q = this.quoted(p, end);
      const colon = this.skipSpaces(q.after, end);
      if (this.text[colon] !== ':' || (colon + 1 < end && this.text[colon + 1] !== ' ')) return undefined;
      return { key: checkKey(q.value, colon - p), after: colon + 1 };
    }
    if (!startsPlain(this.text, p, end) || c === '[' || c === '{') return undefined;
    for (let j = p; j < end; j++) {
      const ch = this.text[j];
      if (ch === '#' && this.text[j - 1] === ' ') return undefined;
      if (ch === ':' && (j + 1 === end || this.text[j + 1] === ' ')) {
        const key = trimSpaces(this.text.slice(p, j));
        if (!isPlainString(key)) unsupported();
        return { key: checkKey(key, j - p), after: j + 1 };
      }
    }
    return undefined;
  }

  private quoted(p: number, end: number): { value: string; after: number } {
    const quote = this.text[p];
    let out = '';
    for (let j = p + 1; j < end; j++) {
      const ch = this.text[j];
      if (quote === "'" && ch === "'") {
        if (this.text[j + 1] === "'") {
          out += "'";
          j++;
          continue;
        }
        return { value: out, after: j + 1 };
      }
      if (quote === '"' && ch === '"') return { value: out, after: j + 1 };
      if (quote === '"' && ch === '\\') {
        const e = this.text[++j];
        if (e === 'u' || e === 'x') {
          const len = e === 'u' ? 4 : 2;
          const hex = this.text.slice(j + 1, j + 1 + len);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) unsupported();
          out += String.fromCharCode(parseInt(hex, 16));
          j += len;
        } else {
          out += ESCAPES[e] ?? unsupported();
        }
        continue;
      }
      out += ch;
    }
    return unsupported();
  }

  /** A flow collection that opens and closes on one line. */
  private flow(p: number, end: number): { value: unknown; after: number } {
    const close = this.text[p] === '[' ? ']' : '}';
    const isMap = close === '}';
    const out: unknown[] = [];
    const obj: Record<string, unknown> = {};
    let j = this.skipSpaces(p + 1, end);
    if (this.text[j] === close) return { value: isMap ? obj : out, after: j + 1 };
    for (;;) {
      if (isMap) {
        const key = this.flowKey(j, end);
        if (Object.prototype.hasOwnProperty.call(obj, key.key)) unsupported();
        const item = this.flowItem(this.skipSpaces(key.after, end), end);
        obj[key.key] = item.value;
        j = item.after;
      } else {
        const item = this.flowItem(j, end);
        out.push(item.value);
        j = item.after;
      }
      j = this.skipSpaces(j, end);
      if (this.text[j] === close) return { value: isMap ? obj : out, after: j + 1 };
      if (this.text[j] !== ',') unsupported();
      j = this.skipSpaces(j + 1, end);
      // A trailing comma, a comment or an unclosed collection: leave it to `yaml`.
      if (j >= end || this.text[j] === close) unsupported();
    }
  }

  private flowKey(p: number, end: number): { key: string; after: number } {
    const c = this.text[p];
    if (c === '"' || c === "'") {
      const q = this.quoted(p, end);
      const colon = this.skipSpaces(q.after, end);
      if (this.text[colon] !== ':' || this.text[colon + 1] !== ' ') unsupported();
      return { key: checkKey(q.value, colon - p), after: colon + 1 };
    }
    if (!startsPlain(this.text, p, end)) unsupported();
    for (let j = p; j < end; j++) {
      const ch = this.text[j];
      if (ch === ',' || ch === '}' || ch === ']' || ch === '[' || ch === '{' || ch === '#') unsupported();
      if (ch === ':' && this.text[j + 1] === ' ') {
        const key = trimSpaces(this.text.slice(p, j));
        if (!isPlainString(key)) unsupported();
        return { key: checkKey(key, j - p), after: j + 1 };
      }
    }
    return unsupported();
  }

  private flowItem(p: number, end: number): { value: unknown; after: number } {
    const c = this.text[p];
    if (c === '[' || c === '{') return this.flow(p, end);
    if (c === '"' || c === "'") {
      const q = this.quoted(p, end);
      return { value: this.strings.intern(q.value), after: q.after };
    }
    if (!startsPlain(this.text, p, end)) unsupported();
    let j = p;
    while (j < end && !',[]{}'.includes(this.text[j])) {
      if (this.text[j] === '#' && this.text[j - 1] === ' ') unsupported();
      if (this.text[j] === ':' && (this.text[j + 1] === ' ' || j + 1 === end)) unsupported();
      j++;
    }
    const raw = trimSpaces(this.text.slice(p, j));
    if (raw === '' || raw.endsWith(':')) unsupported();
    return { value: this.pooled(resolvePlain(raw)), after: j };
  }

  private skipSpaces(p: number, end: number): number {
    while (p < end && this.text.charCodeAt(p) === 32) p++;
    return p;
  }
}

/** Whether a plain scalar may start at `p` (not an indicator, not "- ", "? " or ": "). */
function startsPlain(text: string, p: number, end: number): boolean {
  const c = text[p];
  if (p >= end || INDICATOR.has(c)) return false;
  if ((c === '-' || c === '?' || c === ':') && (p + 1 === end || text[p + 1] === ' ' || ',[]{}'.includes(text[p + 1]))) return false;
  return true;
}

/** Keys must read as strings, the same way `yaml` turns them into object keys. */
function isPlainString(raw: string): boolean {
  return raw !== '' && typeof resolvePlain(raw) === 'string';
}

/** `span`: characters from the key's start to its `:`. */
function checkKey(key: string, span: number): string {
  if (key === '__proto__' || key === '<<' || span > MAX_KEY_SPAN) unsupported();
  return key;
}

/** Drops trailing spaces only: `yaml` keeps every other character, Unicode spaces included. */
function trimSpaces(raw: string): string {
  let end = raw.length;
  while (end > 0 && raw.charCodeAt(end - 1) === 32) end--;
  return raw.slice(0, end);
}

/** The core-schema value of a plain scalar, as `yaml` resolves it. */
function resolvePlain(raw: string): unknown {
  // Most values start with a letter that no null, boolean or number can start with.
  if (raw !== '' && !SPECIAL_START.has(raw[0])) return raw;
  if (NULL.test(raw)) return null;
  if (BOOL.test(raw)) return raw.startsWith('t') || raw.startsWith('T');
  if (INT_OCT.test(raw)) return parseInt(raw.slice(2), 8);
  if (INT.test(raw)) return parseInt(raw, 10);
  if (INT_HEX.test(raw)) return parseInt(raw.slice(2), 16);
  if (FLOAT_NAN.test(raw)) return raw.slice(-3).toLowerCase() === 'nan' ? NaN : raw.startsWith('-') ? -Infinity : Infinity;
  if (FLOAT_EXP.test(raw) || FLOAT.test(raw)) return parseFloat(raw);
  return raw;
}

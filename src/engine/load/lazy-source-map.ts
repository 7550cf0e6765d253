// A SourceMap for a document read by the fast reader: positions are found by parsing the file with
// `yaml` only when a diagnostic first asks for one (rare), so valid manifests never pay for it. The
// text is not kept meanwhile (100,000 manifests are about 47 MB of it): the file is read again then,
// and used only if it is still the text that was loaded (its digest), else positions fall back to
// the file's start rather than pointing at lines that changed under the run.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { JsonPath } from '../../core/json.js';
import type { SourceLocation } from '../../core/diagnostics.js';
import type { SourceMap } from '../manifest.js';
import { YamlSourceMap } from './yaml-source-map.js';

/** What a file's loaded text is known by while it is not kept. */
function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/** A file's text as loading decodes it (UTF-8, without a byte-order mark). */
export function manifestText(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

/** The file's text again, if it is still the one loaded. */
function reread(path: string, digest: string): string | undefined {
  try {
    const text = manifestText(readFileSync(path));
    return digestOf(text) === digest ? text : undefined;
  } catch {
    return undefined;
  }
}

/** One file, parsed with positions at most once and shared by its documents. */
export class LazyFileSource {
  private readonly digest: string;
  private parsed?: { docs: Document[]; byOffset: Map<number, Document>; lines: LineCounter } | 'changed';

  constructor(
    readonly file: string,
    readonly path: string,
    text: string,
  ) {
    this.digest = digestOf(text);
  }

  /** The position-aware map of the document whose root starts at `offset` (the file's start once the file changed). */
  mapAt(offset: number): Pick<SourceMap, 'locate'> {
    if (!this.parsed) {
      const text = reread(this.path, this.digest);
      this.parsed = text === undefined ? 'changed' : parsedText(text);
    }
    if (this.parsed === 'changed') return { locate: () => ({ file: this.file, line: 1, col: 1 }) };
    const { docs, byOffset, lines } = this.parsed;
    const doc = byOffset.get(offset) ?? docs.find((d) => (d.range?.[0] ?? 0) <= offset && offset < (d.range?.[2] ?? 0)) ?? docs[0];
    return new YamlSourceMap(this.file, doc, lines, this.path);
  }
}

function parsedText(text: string): { docs: Document[]; byOffset: Map<number, Document>; lines: LineCounter } {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, logLevel: 'error' }) as Document[];
  const list = Array.isArray(docs) ? docs : [];
  // Indexed once: a file with thousands of broken documents must not search per diagnostic.
  const byOffset = new Map(list.flatMap((d) => (d.contents?.range ? [[d.contents.range[0], d] as const] : [])));
  return { docs: list, byOffset, lines };
}

export class LazySourceMap implements SourceMap {
  private map?: Pick<SourceMap, 'locate'>;

  constructor(
    private readonly source: LazyFileSource,
    private readonly offset: number,
  ) {}

  get file(): string {
    return this.source.file;
  }

  get path(): string {
    return this.source.path;
  }

  locate(path: JsonPath, at: 'key' | 'value' = 'value'): SourceLocation {
    this.map ??= this.source.mapAt(this.offset);
    return this.map.locate(path, at);
  }
}

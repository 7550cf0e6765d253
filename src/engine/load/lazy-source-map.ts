// A SourceMap for a document read by the fast reader: positions are found by parsing the file with
// `yaml` only when a diagnostic first asks for one (rare), so valid manifests never pay for it.
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { JsonPath } from '../../core/json.js';
import type { SourceLocation } from '../../core/diagnostics.js';
import type { SourceMap } from '../manifest.js';
import { YamlSourceMap } from './yaml-source-map.js';

/** One file's text, parsed with positions at most once and shared by its documents. */
export class LazyFileSource {
  private parsed?: { docs: Document[]; byOffset: Map<number, Document>; lines: LineCounter };

  constructor(readonly file: string, readonly path: string, private readonly text: string) {}

  /** The position-aware map of the document whose root starts at `offset`. */
  mapAt(offset: number): YamlSourceMap {
    if (!this.parsed) {
      const lines = new LineCounter();
      const docs = parseAllDocuments(this.text, { lineCounter: lines, logLevel: 'error' }) as Document[];
      const list = Array.isArray(docs) ? docs : [];
      // Indexed once: a file with thousands of broken documents must not search per diagnostic.
      const byOffset = new Map(list.flatMap((d) => (d.contents?.range ? [[d.contents.range[0], d] as const] : [])));
      this.parsed = { docs: list, byOffset, lines };
    }
    const { docs, byOffset, lines } = this.parsed;
    const doc = byOffset.get(offset)
      ?? docs.find((d) => (d.range?.[0] ?? 0) <= offset && offset < (d.range?.[2] ?? 0))
      ?? docs[0];
    return new YamlSourceMap(this.file, doc, lines, this.path);
  }
}

export class LazySourceMap implements SourceMap {
  private map?: YamlSourceMap;

  constructor(private readonly source: LazyFileSource, private readonly offset: number) {}

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

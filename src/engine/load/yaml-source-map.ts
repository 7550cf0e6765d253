// A SourceMap over one parsed YAML document: finds the line and column of any key or value by path.
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair } from 'yaml';
import type { JsonPath } from '../../core/json.js';
import type { SourceLocation } from '../../core/diagnostics.js';
import type { SourceMap } from '../manifest.js';

export class YamlSourceMap implements SourceMap {
  constructor(
    readonly file: string,
    private readonly doc: Document,
    private readonly lines: LineCounter,
    readonly path: string,
  ) {}

  locate(path: JsonPath, at: 'key' | 'value' = 'value'): SourceLocation {
    let node: unknown = this.doc.contents;
    let pair: Pair | undefined;
    let offset = startOf(node) ?? this.doc.range?.[0] ?? 0;
    for (const seg of path) {
      const next = this.child(node, seg);
      if (!next) break;
      node = next.node;
      pair = next.pair;
      offset = at === 'key' && pair ? (startOf(pair.key) ?? offset) : (startOf(node) ?? startOf(pair?.key) ?? offset);
      if (at === 'value' && isEmptyValue(node) && pair) offset = startOf(pair.key) ?? offset;
    }
    return this.position(offset);
  }

  /** The location of an offset into the file's text. */
  position(offset: number): SourceLocation {
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, col };
  }

  private child(node: unknown, seg: string | number): { node: unknown; pair?: Pair } | undefined {
    const target = isAlias(node) ? node.resolve(this.doc) : node;
    if (isMap(target)) {
      const key = String(seg);
      for (const item of target.items) {
        const k = isScalar(item.key) ? item.key.value : item.key;
        if (String(k) === key) return { node: item.value, pair: item };
      }
      return undefined;
    }
    if (isSeq(target)) {
      const item = target.items[Number(seg)];
      return item === undefined ? undefined : { node: isPair(item) ? item.value : item };
    }
    return undefined;
  }
}

function startOf(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/** `key:` with nothing after it: point at the key rather than at the empty space. */
function isEmptyValue(node: unknown): boolean {
  return node === null || node === undefined || (isScalar(node) && node.source === '' && node.value === null);
}

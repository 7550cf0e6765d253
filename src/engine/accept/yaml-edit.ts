// Edits of a YAML file that leave the rest of it as written: a scalar is replaced in the text in its
// own quoting; a mapping or list that gains or loses an entry is written again through the yaml
// package's Document API (its comments kept) in its place, and nothing outside it moves.
import { Document, isCollection, isScalar, isSeq, parseAllDocuments, Scalar, type Node, type Range, type YAMLMap, type YAMLSeq } from 'yaml';
import { isObject, type JsonValue } from '../../core/json.js';

type Path = readonly (string | number)[];

export class YamlFileEdit {
  private readonly docs: Document.Parsed[];
  /** Scalars replaced in place: node -> where it stands in the text and its new text. */
  private readonly scalars = new Map<Node, { range: Range; text: string }>();
  /** Collections changed in the model, written again whole. */
  private readonly collections = new Set<Node>();
  private readonly indentSeq: boolean;
  /** Documents by kind and metadata.name, indexed on first use. */
  private byAddress?: Map<string, number>;

  constructor(readonly text: string) {
    this.docs = parseAllDocuments(text, { keepSourceTokens: false }) as Document.Parsed[];
    // Lists under a key written at the key's own indentation ("key:\n- a") stay that way.
    this.indentSeq = !/^( *)[^\s#-][^\n]*:[ \t]*\r?\n\1- /m.test(text);
  }

  /** The index of the document with this kind and metadata.name, or -1. */
  documentOf(kind: string, name: string): number {
    let byAddress = this.byAddress;
    if (!byAddress) {
      const built = new Map<string, number>();
      this.docs.forEach((d, i) => {
        const key = `${String(d.get('kind'))}\0${String(d.getIn(['metadata', 'name']))}`;
        if (!built.has(key)) built.set(key, i);
      });
      this.byAddress = byAddress = built;
    }
    return byAddress.get(`${kind}\0${name}`) ?? -1;
  }

  /** The plain value at `path` of document `doc` (undefined when absent). */
  valueAt(doc: number, path: Path): unknown {
    const node = this.docs[doc]?.getIn(path, true);
    return node === undefined ? undefined : isScalar(node) ? node.value : (node as Node).toJSON();
  }

  /** Whether the node at `path` exists. */
  has(doc: number, path: Path): boolean {
    return this.docs[doc]?.hasIn(path) ?? false;
  }

  /** Sets the value at `path`, creating what is missing on the way. */
  set(doc: number, path: Path, value: JsonValue): void {
    const d = this.docs[doc];
    const node = d.getIn(path, true) as Node | undefined;
    if (isScalar(node) && !isObject(value) && !Array.isArray(value) && node.range) {
      node.value = value;
      this.scalars.set(node, { range: node.range, text: renderScalar(value, node.type) });
      return;
    }
    const { holder, rest } = this.nearest(doc, path.slice(0, -1));
    const key = path[path.length - 1];
    const created = d.createNode(value) as Node;
    if (rest.length === 0) (holder as YAMLMap | YAMLSeq).set(key, created);
    else (holder as YAMLMap).setIn([...rest, key], created);
    this.collections.add(holder);
  }

  /** Appends `value` to the list at `path` (created when missing). */
  append(doc: number, path: Path, value: JsonValue): void {
    const list = this.docs[doc].getIn(path, true);
    if (!isSeq(list)) {
      this.set(doc, path, [value]);
      return;
    }
    list.add(this.docs[doc].createNode(value));
    this.collections.add(list);
  }

  /** Removes the entry at `path`. */
  remove(doc: number, path: Path): void {
    const parent = this.docs[doc].getIn(path.slice(0, -1), true);
    if (!isCollection(parent)) return;
    parent.delete(path[path.length - 1]);
    this.collections.add(parent);
  }

  /** The whole file with the edits made. */
  result(): string {
    // A collection with no range was created by an edit: the collection it was added to is written whole.
    const changed = [...this.collections].flatMap((node) =>
      node.range && !this.inside(node, node.range, this.collections) ? [{ node, range: node.range }] : [],
    );
    const changedNodes = new Set(changed.map((c) => c.node));
    const edits = [
      ...changed.map(({ node, range }) => ({ start: range[0], end: range[1], text: this.render(node, range) })),
      ...[...this.scalars]
        .filter(([n, { range }]) => !this.inside(n, range, changedNodes))
        .map(([, { range, text }]) => ({ start: range[0], end: range[1], text })),
    ].sort((a, b) => b.start - a.start);
    let out = this.text;
    for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  }

  /** The nearest existing mapping or list on `path`, and the rest of the path below it. */
  private nearest(doc: number, path: Path): { holder: Node; rest: Path } {
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? this.docs[doc].contents : this.docs[doc].getIn(path.slice(0, n), true);
      if (isCollection(node)) return { holder: node, rest: path.slice(n) };
    }
    throw new Error(`no mapping to write ${path.join('.')} into`);
  }

  /** Whether `node`, at range `r`, lies inside one of `outer` (by source range). */
  private inside(node: Node, r: Range, outer: ReadonlySet<Node>): boolean {
    for (const o of outer) if (o !== node && o.range && o.range[0] <= r[0] && r[1] <= o.range[1]) return true;
    return false;
  }

  /** A collection written again where it stood: its first line in place, the others at its column. */
  private render(node: Node, range: Range): string {
    const start = range[0];
    const original = this.text.slice(start, range[1]);
    const column = start - (this.text.lastIndexOf('\n', start - 1) + 1);
    const alone = new Document(node);
    let text = alone.toString({ flowCollectionPadding: false, lineWidth: 0, indentSeq: this.indentSeq });
    if (!original.endsWith('\n')) text = text.replace(/\n$/, '');
    const pad = ' '.repeat(column);
    return text
      .split('\n')
      .map((line, i) => (i === 0 || line === '' ? line : pad + line))
      .join('\n');
  }
}

/** A scalar in the quoting it was written in, if that can hold the value; else JSON's double quotes. */
function renderScalar(value: unknown, type: Scalar['type']): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  if (type === Scalar.QUOTE_SINGLE) return `'${value.replace(/'/g, "''")}'`;
  if (type === Scalar.PLAIN) {
    // Most values need no quotes: a word, a version, a path (what YAML would read as a number, a boolean or null does).
    if (/^[A-Za-z_/][\w./@-]*(:[\w./@-]+)*$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(value)) return value;
    const doc = new Document(value);
    const plain = doc.toString({ lineWidth: 0 }).replace(/\n$/, '');
    if (!/^['"|>]/.test(plain) && !plain.includes('\n')) return plain;
  }
  return JSON.stringify(value);
}

// Reads one manifest file into plain JSON documents with source maps; every failure is a diagnostic.
import { readFile, stat } from 'node:fs/promises';
import { LineCounter, parseAllDocuments, type Document, type YAMLError } from 'yaml';
import type { Diagnostic, Severity, SourceLocation } from '../../core/diagnostics.js';
import { diagnosed, type Diagnosed } from '../../core/diagnosed.js';
import type { SourceMap } from '../manifest.js';
import { parseFast } from './fast-yaml.js';
import { LazyFileSource, LazySourceMap, manifestText } from './lazy-source-map.js';
import { findExcessiveNesting } from './nesting-depth.js';
import { findNonJson } from './plain-json.js';
import { findRecursiveAlias } from './recursive-alias.js';
import { fieldPath } from '../../core/field-path.js';
import { isObject } from '../../core/json.js';
import { YamlSourceMap } from './yaml-source-map.js';

export const MAX_FILE_BYTES = 4 * 1024 * 1024;
export const MAX_NESTING = 256;
/** Documents in one file; far more than any real set, few enough to report on quickly. */
export const MAX_DOCUMENTS = 10_000;
/** Aliases a document may expand; a few are normal, thousands are an alias bomb. */
export const MAX_ALIAS_COUNT = 100;

export interface ParsedDocument {
  readonly value: unknown;
  readonly source: SourceMap;
}

/**
 * A document that could not be read, with the address its header names when that much can be
 * made out (`kind` and `metadata.name`): a stack's overlays of it are not checked on their own.
 */
export interface UnreadDocument {
  readonly address?: { readonly kind: string; readonly name: string };
}

export interface ParsedFile {
  readonly documents: ParsedDocument[];
  readonly diagnostics: Diagnostic[];
  /** Documents left out because they failed to parse or hold values JSON does not. */
  readonly unread: UnreadDocument[];
}

/** Parses every document of `absPath`; `file` is the path shown in diagnostics. */
export async function parseManifestFile(absPath: string, file: string): Promise<ParsedFile> {
  const start: SourceLocation = { file, line: 1, col: 1 };
  const fail = (message: string, severity: Severity = 'error'): ParsedFile => ({
    documents: [],
    diagnostics: [{ severity, message, location: start, code: 'load.file' }],
    unread: [{}],
  });
  const size = (await stat(absPath)).size;
  if (size > MAX_FILE_BYTES) return fail(`file is ${mebibytes(size)}, over the ${mebibytes(MAX_FILE_BYTES)} limit for a manifest file; not read`);
  const bytes = await readFile(absPath);
  if (bytes.includes(0)) return fail('not a text file (it contains NUL bytes)');
  const text = manifestText(bytes);
  const separators = text.match(/^---(?=[ \r\n]|$)/gm)?.length ?? 0;
  if (separators >= MAX_DOCUMENTS) return fail(`more than ${MAX_DOCUMENTS.toLocaleString('en-US')} documents in one file; not parsed`);
  const deep = findExcessiveNesting(text, MAX_NESTING);
  if (deep)
    return {
      documents: [],
      diagnostics: [
        {
          severity: 'error',
          message: `nesting deeper than ${MAX_NESTING} levels; not parsed`,
          location: { file, line: deep.line, col: deep.col },
          code: 'load.nesting',
        },
      ],
      unread: [{}],
    };
  const parsed = parseFastText(text, file, absPath) ?? parseText(text, file, absPath);
  // A document is kept only when it is plain JSON; otherwise its first odd value is reported.
  const problems = parsed.documents.map(notPlain);
  return {
    documents: parsed.documents.filter((_, i) => problems[i] === undefined),
    diagnostics: [...parsed.diagnostics, ...problems.filter((d): d is Diagnostic => d !== undefined)],
    unread: [...parsed.unread, ...parsed.documents.filter((_, i) => problems[i] !== undefined).map((d) => ({ address: addressOf(d.value) }))],
  };
}

/** What keeps a document from being plain JSON (its first odd value), or undefined when it is. */
function notPlain(doc: ParsedDocument): Diagnostic | undefined {
  const problem = findNonJson(doc.value);
  if (!problem) return undefined;
  return {
    severity: 'error',
    message: problem.path.length > 0 ? `${fieldPath(problem.path)}: ${problem.message}` : problem.message,
    location: doc.source.locate(problem.path),
    code: 'load.value',
  };
}

/** The fast reader's documents, or undefined when the text needs the full `yaml` parser. */
function parseFastText(text: string, file: string, path: string): ParsedFile | undefined {
  const fast = parseFast(text);
  if (!fast) return undefined;
  const source = new LazyFileSource(file, path, text);
  const documents = fast.filter((d) => d.value !== null).map((d) => ({ value: d.value, source: new LazySourceMap(source, d.offset) }));
  return { documents, diagnostics: documents.length === 0 ? [emptyWarning(file)] : [], unread: [] };
}

function emptyWarning(file: string): Diagnostic {
  return { severity: 'warning', message: 'no manifests in this file', location: { file, line: 1, col: 1 }, code: 'load.empty' };
}

function parseText(text: string, file: string, path: string): ParsedFile {
  const lines = new LineCounter();
  const documents: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  const unread: UnreadDocument[] = [];
  let docs: Document[];
  try {
    docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  } catch (err) {
    // The nesting estimate should prevent it; a parser failure must still not become a stack trace.
    return {
      documents,
      diagnostics: [{ severity: 'error', message: `cannot parse YAML: ${(err as Error).message}`, location: { file, line: 1, col: 1 }, code: 'load.yaml' }],
      unread: [{}],
    };
  }
  for (const doc of Array.isArray(docs) ? docs : []) {
    const source = new YamlSourceMap(file, doc, lines, path);
    const problems = [
      ...firstSyntaxError(doc.errors).map((e) => ({ e, severity: 'error' as const })),
      ...doc.warnings.map((e) => ({ e, severity: 'warning' as const })),
    ];
    for (const { e, severity } of problems) {
      const deeper = e.code === 'BLOCK_AS_IMPLICIT_KEY' ? keyIndentedUnderValue(text, e.pos[0]) : undefined;
      if (deeper) {
        diagnostics.push({ severity, message: deeper.message, location: source.position(deeper.offset), code: `yaml.${e.code}` });
        continue;
      }
      const message = yamlMessage(e.code, e.message, keyAt(text, e.pos[0])) + (isDuplicate(e) ? '' : unquotedPlaceholderHint(text, e.pos[0]));
      diagnostics.push({ severity, message, location: source.position(e.pos[0]), code: `yaml.${e.code}` });
    }
    if (doc.errors.length > 0) {
      unread.push({ address: partialAddress(doc) });
      continue;
    }
    if (doc.contents === null) continue;
    const { value, diagnostics: unreadable } = toPlain(doc, source);
    diagnostics.push(...unreadable);
    if (unreadable.some((d) => d.severity === 'error')) unread.push({ address: partialAddress(doc) });
    // A bare `---` or a comment-only document holds no manifest; it is not an error.
    if (value !== undefined && value !== null) documents.push({ value, source });
  }
  if (documents.length === 0 && !diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push(emptyWarning(file));
  }
  return { documents, diagnostics, unread };
}

/** The kind and name a broken document's header names, read from what the parser made of it (no aliases expanded). */
function partialAddress(doc: Document): UnreadDocument['address'] {
  const kind = doc.get('kind');
  const name = doc.getIn(['metadata', 'name']);
  return typeof kind === 'string' && typeof name === 'string' ? { kind, name } : undefined;
}

function addressOf(value: unknown): UnreadDocument['address'] {
  if (!isObject(value) || typeof value.kind !== 'string' || !isObject(value.metadata) || typeof value.metadata.name !== 'string') return undefined;
  return { kind: value.kind, name: value.metadata.name };
}

/** The document as plain values, or undefined with why it cannot be read (a recursive alias, an alias bomb). */
function toPlain(doc: Document, source: YamlSourceMap): Diagnosed<unknown> {
  const recursive = findRecursiveAlias(doc);
  if (recursive) {
    return diagnosed(undefined, [
      {
        severity: 'error',
        message: `the alias ${recursive.toString()} refers to a mapping or list that contains it: a manifest cannot contain itself`,
        location: source.position(recursive.range?.[0] ?? 0),
        code: 'load.alias',
      },
    ]);
  }
  try {
    return diagnosed(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }));
  } catch (err) {
    const text = (err as Error).message;
    const message = text.includes('Excessive alias count')
      ? `too many alias expansions (over ${MAX_ALIAS_COUNT}): refusing a possible alias bomb`
      : `cannot read this document: ${text.split('\n')[0]}`;
    return diagnosed(undefined, [{ severity: 'error', message, location: source.locate([]), code: 'load.alias' }]);
  }
}

function isDuplicate(e: YAMLError): boolean {
  return e.code === 'DUPLICATE_KEY' || e.message.startsWith('Map keys must be unique');
}

/**
 * Every duplicate key (each is a mistake of its own), but of the syntax errors only the first: the
 * parser reports each token after it as unexpected too, one mistake as dozens of errors.
 */
function firstSyntaxError(errors: readonly YAMLError[]): YAMLError[] {
  const syntax = errors.filter((e) => !isDuplicate(e)).sort((a, b) => a.pos[0] - b.pos[0]);
  return [...errors.filter(isDuplicate), ...syntax.slice(0, 1)];
}

/**
 * A `${…}` placeholder left unquoted in a flow mapping or list breaks it (`{` and `}` are YAML's):
 * say how to write it, but only when the line opens a flow collection before the placeholder.
 */
function unquotedPlaceholderHint(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  const found = /(?:^|[\s,[{:])(\$\{[^}\s]*\})/.exec(line);
  if (!found) return '';
  const before = line.slice(0, found.index + found[0].length - found[1].length).replace(/\$\{[^}\s]*\}/g, '');
  return /[[{]/.test(before) ? `; quote the placeholder inside { } or [ ]: "${found[1]}"` : '';
}

/**
 * `cpu: 1` followed by a key indented deeper (`  memoryInGB: 1.5`): the parser reads the second
 * line as part of the first's value and says "nested mappings are not allowed in compact mappings"
 * at the value. The mistake is the deeper key: name it, where it is, and the key it should line up with.
 */
function keyIndentedUnderValue(text: string, offset: number): { message: string; offset: number } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const owner = /^(\s*)(?:-\s+)?([^\s:#][^:#]*?):\s/.exec(text.slice(lineStart, offset + 1));
  if (!owner) return undefined;
  const ownerColumn = lineStart + owner[0].length - owner[0].trimStart().length;
  let at = text.indexOf('\n', offset);
  while (at >= 0) {
    const start = at + 1;
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? undefined : end);
    at = end;
    if (/^\s*(#|$)/.test(line)) continue;
    const indent = line.length - line.trimStart().length;
    const key = /^([^\s:#][^:#]*?):(\s|$)/.exec(line.trimStart());
    if (!key) return undefined;
    const keyColumn = ownerColumn - lineStart + 1;
    const ownerKey = owner[2].trim();
    const message =
      `invalid YAML: the key ${JSON.stringify(key[1])} is indented deeper (column ${indent + 1}) than ${JSON.stringify(ownerKey)} (column ${keyColumn}), which already has a value; ` +
      `line it up with ${JSON.stringify(ownerKey)}, or move the value of ${JSON.stringify(ownerKey)} to its own lines`;
    return { message, offset: start + indent };
  }
  return undefined;
}

function yamlMessage(code: string, message: string, near: string): string {
  if (code === 'DUPLICATE_KEY' || message.startsWith('Map keys must be unique'))
    return `duplicate key ${JSON.stringify(near)}: a key may appear only once in a mapping`;
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  return `invalid YAML: ${first}`;
}

/** The key text starting at `offset` (for naming a duplicate key). */
function keyAt(text: string, offset: number): string {
  const line = text.slice(offset, offset + 200).split('\n')[0];
  const colon = line.search(/:(\s|$)/);
  return (colon < 0 ? line : line.slice(0, colon)).trim();
}

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
}

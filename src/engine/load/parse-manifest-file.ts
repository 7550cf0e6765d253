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

/** Parses every document of `absPath`; `file` is the path shown in diagnostics. */
export async function parseManifestFile(absPath: string, file: string): Promise<{ documents: ParsedDocument[]; diagnostics: Diagnostic[] }> {
  const start: SourceLocation = { file, line: 1, col: 1 };
  const fail = (message: string, severity: Severity = 'error') => ({ documents: [], diagnostics: [{ severity, message, location: start, code: 'load.file' }] });
  const size = (await stat(absPath)).size;
  if (size > MAX_FILE_BYTES) return fail(`file is ${mebibytes(size)}, over the ${mebibytes(MAX_FILE_BYTES)} limit for a manifest file; not read`);
  const bytes = await readFile(absPath);
  if (bytes.includes(0)) return fail('not a text file (it contains NUL bytes)');
  const text = manifestText(bytes);
  const separators = text.match(/^---(?=[ \r\n]|$)/gm)?.length ?? 0;
  if (separators >= MAX_DOCUMENTS) return fail(`more than ${MAX_DOCUMENTS.toLocaleString('en-US')} documents in one file; not parsed`);
  const deep = findExcessiveNesting(text, MAX_NESTING);
  if (deep) return { documents: [], diagnostics: [{ severity: 'error', message: `nesting deeper than ${MAX_NESTING} levels; not parsed`, location: { file, line: deep.line, col: deep.col }, code: 'load.nesting' }] };
  const parsed = parseFastText(text, file, absPath) ?? parseText(text, file, absPath);
  // A document is kept only when it is plain JSON; otherwise its first odd value is reported.
  const problems = parsed.documents.map(notPlain);
  return {
    documents: parsed.documents.filter((_, i) => problems[i] === undefined),
    diagnostics: [...parsed.diagnostics, ...problems.filter((d): d is Diagnostic => d !== undefined)],
  };
}

/** What keeps a document from being plain JSON (its first odd value), or undefined when it is. */
function notPlain(doc: ParsedDocument): Diagnostic | undefined {
  const problem = findNonJson(doc.value);
  if (!problem) return undefined;
  return { severity: 'error', message: problem.path.length > 0 ? `${fieldPath(problem.path)}: ${problem.message}` : problem.message, location: doc.source.locate(problem.path), code: 'load.value' };
}

/** The fast reader's documents, or undefined when the text needs the full `yaml` parser. */
function parseFastText(text: string, file: string, path: string): { documents: ParsedDocument[]; diagnostics: Diagnostic[] } | undefined {
  const fast = parseFast(text);
  if (!fast) return undefined;
  const source = new LazyFileSource(file, path, text);
  const documents = fast.filter((d) => d.value !== null).map((d) => ({ value: d.value, source: new LazySourceMap(source, d.offset) }));
  return { documents, diagnostics: documents.length === 0 ? [emptyWarning(file)] : [] };
}

function emptyWarning(file: string): Diagnostic {
  return { severity: 'warning', message: 'no manifests in this file', location: { file, line: 1, col: 1 }, code: 'load.empty' };
}

function parseText(text: string, file: string, path: string): { documents: ParsedDocument[]; diagnostics: Diagnostic[] } {
  const lines = new LineCounter();
  const documents: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  let docs: Document[];
  try {
    docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, logLevel: 'error' }) as Document[];
  } catch (err) {
    // The nesting estimate should prevent it; a parser failure must still not become a stack trace.
    return { documents, diagnostics: [{ severity: 'error', message: `cannot parse YAML: ${(err as Error).message}`, location: { file, line: 1, col: 1 }, code: 'load.yaml' }] };
  }
  for (const doc of Array.isArray(docs) ? docs : []) {
    const source = new YamlSourceMap(file, doc, lines, path);
    const problems = [...firstSyntaxError(doc.errors).map((e) => ({ e, severity: 'error' as const })), ...doc.warnings.map((e) => ({ e, severity: 'warning' as const }))];
    for (const { e, severity } of problems) {
      const message = yamlMessage(e.code, e.message, keyAt(text, e.pos[0])) + (isDuplicate(e) ? '' : unquotedPlaceholderHint(text, e.pos[0]));
      diagnostics.push({ severity, message, location: source.position(e.pos[0]), code: `yaml.${e.code}` });
    }
    if (doc.errors.length > 0 || doc.contents === null) continue;
    const { value, diagnostics: unreadable } = toPlain(doc, source);
    diagnostics.push(...unreadable);
    // A bare `---` or a comment-only document holds no manifest; it is not an error.
    if (value !== undefined && value !== null) documents.push({ value, source });
  }
  if (documents.length === 0 && !diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push(emptyWarning(file));
  }
  return { documents, diagnostics };
}

/** The document as plain values, or undefined with why it cannot be read (a recursive alias, an alias bomb). */
function toPlain(doc: Document, source: YamlSourceMap): Diagnosed<unknown> {
  const recursive = findRecursiveAlias(doc);
  if (recursive) {
    return diagnosed(undefined, [{ severity: 'error', message: `the alias ${recursive.toString()} refers to a mapping or list that contains it: a manifest cannot contain itself`, location: source.position(recursive.range?.[0] ?? 0), code: 'load.alias' }]);
  }
  try {
    return diagnosed(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }));
  } catch (err) {
    const text = (err as Error).message;
    const message = /Excessive alias count/.test(text)
      ? `too many alias expansions (over ${MAX_ALIAS_COUNT}): refusing a possible alias bomb`
      : `cannot read this document: ${text.split('\n')[0]}`;
    return diagnosed(undefined, [{ severity: 'error', message, location: source.locate([]), code: 'load.alias' }]);
  }
}

const DUPLICATE = /^Map keys must be unique/;

function isDuplicate(e: YAMLError): boolean {
  return e.code === 'DUPLICATE_KEY' || DUPLICATE.test(e.message);
}

/**
 * Every duplicate key (each is a mistake of its own), but of the syntax errors only the first: the
 * parser reports each token after it as unexpected too, one mistake as dozens of errors.
 */
function firstSyntaxError(errors: readonly YAMLError[]): YAMLError[] {
  const syntax = errors.filter((e) => !isDuplicate(e)).sort((a, b) => a.pos[0] - b.pos[0]);
  return [...errors.filter(isDuplicate), ...syntax.slice(0, 1)];
}

/** A `${…}` placeholder left unquoted in a flow mapping or list breaks it (`{` and `}` are YAML's): say how to write it. */
function unquotedPlaceholderHint(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  const found = /(?:^|[\s,[{:])(\$\{[^}\s]*\})/.exec(line);
  return found ? `; quote the placeholder inside { } or [ ]: "${found[1]}"` : '';
}

function yamlMessage(code: string, message: string, near: string): string {
  if (code === 'DUPLICATE_KEY' || DUPLICATE.test(message)) return `duplicate key ${JSON.stringify(near)}: a key may appear only once in a mapping`;
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

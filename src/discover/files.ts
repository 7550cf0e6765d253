// What discover writes: manifest files (never over an existing file) and DIR/.env.example, the
// names of the hidden secrets' variables (never a value), added to when a later run finds more.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Document } from 'yaml';
import type { JsonObject } from '../core/json.js';
import { API_VERSION } from '../engine/manifest.js';

export interface ManifestDocument {
  readonly kind: string;
  readonly name: string;
  readonly spec: JsonObject;
}

/** Writes the documents of one home as one multi-document file; refuses (the 'wx' flag) to replace a file. */
export function writeManifestFile(file: string, home: string, documents: readonly ManifestDocument[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const text = documents
    .map((d, i) => {
      const doc = new Document({ apiVersion: API_VERSION, kind: d.kind, metadata: { name: d.name }, spec: d.spec });
      if (i === 0)
        doc.commentBefore = ` Written by moor discover from the live resources of ${home}.\n Hidden secrets are \${env:NAME} placeholders: their names are in .env.example.`;
      return doc.toString({ lineWidth: 0 });
    })
    .join('---\n');
  writeFileSync(file, text, { flag: 'wx' });
}

const HEADER =
  '# The secrets moor discover found hidden by the services: set each before changing the resource that uses it.\n# Until then plan leaves the live value alone (state records it as adopted, value unknown).\n';

/** Adds lines to DIR/.env.example (created with a header when missing); what is there stays. */
export function writeEnvExample(file: string, lines: readonly string[]): void {
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) writeFileSync(file, HEADER, { flag: 'wx' });
  appendFileSync(file, lines.join('\n') + '\n');
}

/** The variable names DIR/.env.example holds already, so a later run names new secrets apart from them. */
export function existingSecretNames(dir: string): Set<string> {
  const file = `${dir}/.env.example`;
  if (!existsSync(file)) return new Set();
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(l)?.[1])
      .filter((n): n is string => n !== undefined),
  );
}

// The state document on disk: the empty document, and parsing that tells corruption from a missing file.
import { UserError } from '../../core/diagnostics.js';
import { fieldOf, isObject } from '../../core/json.js';
import { notJsonMessage } from '../../core/json-syntax.js';
import { recordProblem } from './record-check.js';
import type { StateDocument } from './types.js';

export function emptyState(): StateDocument {
  return { version: 1, serial: 0, resources: {} };
}

/**
 * The document as compact JSON (the text JSON.stringify gives) in pieces of one record each, so a
 * large state is written without ever being one string. The records are taken when it is called.
 */
export function compactChunks(doc: StateDocument): Iterable<string> {
  const records = Object.entries(doc.resources);
  const { version, serial, extras } = doc;
  return (function* () {
    yield `{"version":${JSON.stringify(version)},"serial":${JSON.stringify(serial)},"resources":{`;
    for (const [i, [address, record]] of records.entries()) yield `${i > 0 ? ',' : ''}${JSON.stringify(address)}:${JSON.stringify(record)}`;
    yield extras === undefined ? '}}' : `},"extras":${JSON.stringify(extras)}}`;
  })();
}

/**
 * Parses state text, or throws a UserError naming the file and how to recover.
 * Never repairs anything itself: a corrupt state must not be silently replaced.
 * `hasBackup` is asked only when the text is corrupt (for the advice), not on every read.
 */
export function parseState(text: string, location: string, hasBackup: () => boolean = () => true): StateDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw corrupt(location, hasBackup, notJsonMessage(text, err as Error));
  }
  if (!isObject(doc)) throw corrupt(location, hasBackup, 'not a JSON object');
  if (fieldOf(doc, 'version') === undefined) throw corrupt(location, hasBackup, 'no "version" field (this moor reads version 1)');
  if (isNewerVersion(doc.version)) throw newerMoor(location, doc.version);
  if (doc.version !== 1) throw corrupt(location, hasBackup, `unknown state version ${JSON.stringify(doc.version)} (this moor reads version 1)`);
  if (typeof doc.serial !== 'number' || !Number.isInteger(doc.serial) || doc.serial < 0)
    throw corrupt(location, hasBackup, 'serial is not a non-negative integer');
  if (!isObject(doc.resources)) throw corrupt(location, hasBackup, '"resources" is not an object');
  for (const [address, record] of Object.entries(doc.resources)) {
    const problem = recordProblem(address, record);
    if (problem) throw corrupt(location, hasBackup, problem);
  }
  if (fieldOf(doc, 'extras') !== undefined && !isObject(doc.extras)) throw corrupt(location, hasBackup, '"extras" is not an object');
  // Checked above field by field; the record fields moor does not rely on are passed through.
  return doc as unknown as StateDocument;
}

/** A whole version above the one this moor reads: a newer moor wrote it, so the file is not corrupt. */
function isNewerVersion(version: unknown): boolean {
  return typeof version === 'number' && Number.isSafeInteger(version) && version > 1;
}

// No backup advice: the backup may be older than changes the newer moor made, and upgrading loses nothing.
function newerMoor(location: string, version: unknown): UserError {
  return new UserError(`state file ${location} was written by a newer moor (state version ${String(version)}; this moor reads version 1): upgrade moor`);
}

function corrupt(location: string, hasBackup: () => boolean, why: string): UserError {
  const recover = hasBackup()
    ? `The previous version is kept in ${location}.backup: inspect both, then copy the backup over the state file `
    : `There is no previous version (${location}.backup does not exist): repair the file by hand `;
  return new UserError(
    `state file ${location} is corrupt: ${why}. moor will not overwrite it. ` +
      recover +
      `(or move the state file away to start from empty state, which forgets every managed resource).`,
  );
}

// A plan saved with `plan --out` is a contract: apply --plan does exactly what it shows or
// refuses. It pins the state serial, the manifests' digest, each change's desired body (secrets
// as salted hashes only) and the live version each change was computed against.
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../../core/diagnostics.js';
import { isObject, valueText, type JsonObject } from '../../core/json.js';
import type { Masker } from '../../core/masker.js';
import { notJsonMessage } from '../../core/json-syntax.js';
import { fileErrorMessage } from '../file-errors.js';
import type { PlanInputs } from './plan-document.js';

export interface SavedChange {
  readonly address: string;
  readonly action: string;
  /** The desired body reviewed (secrets as salted hashes); absent for deletes. */
  readonly desired?: JsonObject;
  /** liveVersion() of the resource when the plan was made. */
  readonly liveVersion?: string;
}

export interface SavedPlan {
  readonly serial: number;
  readonly manifestsDigest: string;
  readonly inputs: PlanInputs;
  readonly changes: readonly SavedChange[];
  /** The folder the plan was made in (absolute); unset in plans saved before it was recorded. */
  readonly workingDirectory?: string;
  /** The whole document, for rendering it. */
  readonly document: JsonObject;
}

/**
 * Writes the document readable by its owner only (also when the file already existed). Bodies hold
 * secrets as hashes only; the masker catches a secret a service echoed into a diagnostic's message.
 */
export function writeSavedPlan(file: string, document: JsonObject, m: Masker, shownAs = file): void {
  if (lstatSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UserError(`--out ${shownAs} is a directory; give the plan a file name, e.g. ${join(shownAs, 'plan.json')}`);
  }
  // A new file, readable by its owner only, moved over the old one: nothing that exists is
  // chmodded (not a folder given by mistake, not what a symbolic link points to).
  const fresh = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(fresh, m.mask(JSON.stringify(document, null, 2)) + '\n', { mode: 0o600, flag: 'wx' });
    renameSync(fresh, file);
  } catch (err) {
    rmSync(fresh, { force: true });
    // Named as the user gave it, not by the temporary file's name.
    const message = fileErrorMessage(err, shownAs, 'write');
    throw message ? new UserError(message) : err;
  }
}

/** `file`: where to read it; `shownAs`: how messages name it (as the user gave it, relative to the run's folder). */
export function readPlanDocument(file: string, shownAs = file): JsonObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(fileErrorMessage(err, `saved plan ${shownAs}`) ?? `cannot read saved plan ${shownAs}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UserError(`cannot read saved plan ${shownAs}: ${notJsonMessage(text, err as Error)}`);
  }
  if (!isObject(doc) || doc.format !== 'moor-plan/1' || !Array.isArray(doc.changes)) {
    throw new UserError(`${shownAs} is not a moor plan (moor-plan/1 document)`);
  }
  return doc;
}

export function readSavedPlan(path: string, file = path): SavedPlan {
  const doc = readPlanDocument(path, file);
  const inputs = doc.inputs;
  if (typeof doc.serial !== 'number' || typeof doc.manifestsDigest !== 'string' || !isObject(inputs) || !Array.isArray(inputs.paths)) {
    throw new UserError(`${file} is not a plan saved by 'moor plan --out' (it pins no manifests or inputs); run 'moor plan --out' again`);
  }
  const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return {
    serial: doc.serial,
    manifestsDigest: doc.manifestsDigest,
    inputs: {
      paths: strings(inputs.paths),
      targets: strings(inputs.targets),
      prune: inputs.prune === true,
      replace: strings(inputs.replace),
      refreshOnly: inputs.refreshOnly === true,
      ...(inputs.allowMassDelete === true ? { allowMassDelete: true } : {}),
      ...(typeof inputs.stack === 'string' ? { stack: inputs.stack } : {}),
      ...(inputs.allowUntracked === true ? { allowUntracked: true } : {}),
      ...(Array.isArray(inputs.allowDestructive) && inputs.allowDestructive.length > 0 ? { allowDestructive: strings(inputs.allowDestructive) } : {}),
    },
    changes: (doc.changes as unknown[]).filter(isObject).map((c) => ({
      address: valueText(c.address),
      action: valueText(c.action),
      ...(isObject(c.desired) ? { desired: c.desired } : {}),
      ...(typeof c.liveVersion === 'string' ? { liveVersion: c.liveVersion } : {}),
    })),
    ...(typeof doc.workingDirectory === 'string' ? { workingDirectory: doc.workingDirectory } : {}),
    document: doc,
  };
}

/**
 * A saved plan's manifest paths (and the default state and config files, and `${file:}` paths) are
 * relative to the folder it was made in. A pipeline's apply job may check the same files out at
 * another path: that is fine (the manifests' digest and the state serial pin what was reviewed).
 * But where the plan's paths are not there, it was surely run from the wrong folder: refused up
 * front in one line naming the folder the plan was made in.
 */
export function checkSavedFolder(file: string, saved: SavedPlan, cwd: string): void {
  const made = saved.workingDirectory;
  if (made === undefined || sameFolder(made, cwd)) return;
  const missing = saved.inputs.paths.filter((p) => !existsSync(resolve(cwd, p)));
  if (missing.length === 0) return;
  throw new UserError(
    `saved plan ${file} was made in ${made}; run apply --plan from there (this is ${cwd}, where ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not found): its manifest paths, state and config are relative to that folder`,
  );
}

function sameFolder(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b); // the same folder reached through a symbolic link
  } catch {
    return false; // the folder the plan was made in is gone
  }
}

/** Refuses the whole plan when state or the manifests moved on since it was made. */
export function checkSavedInputs(file: string, saved: SavedPlan, now: { serial: number; manifestsDigest: string }): void {
  if (saved.serial !== now.serial) {
    throw new UserError(
      `saved plan ${file} is stale: it was made from state serial ${saved.serial}, but state is now at serial ${now.serial}; nothing was applied; run 'moor plan --out' again`,
    );
  }
  if (saved.manifestsDigest !== now.manifestsDigest) {
    throw new UserError(
      `saved plan ${file} was made from other manifests: they changed since the plan was reviewed (digest ${short(saved.manifestsDigest)}, now ${short(now.manifestsDigest)}); nothing was applied; run 'moor plan --out' again and review it`,
    );
  }
}

function short(digest: string): string {
  return digest.replace(/^sha256:/, '').slice(0, 12);
}

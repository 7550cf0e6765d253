// Reads the file of a `${file:path}` placeholder, confined to the manifests' root.
//
// A manifest is input from whoever can open a pull request: `${file:/proc/self/environ}` would put
// the run's tokens into a plan, `${file:/dev/zero}` would read forever, `${file:../../x}` anything
// on the machine. So a path stays under the root unless the config allows more, only regular
// files are read (checked before and after opening, so a FIFO swapped in cannot block), never
// a kernel interface (/proc, /sys, /dev), and never more than a size limit.
import { accessSync, closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileErrorWords } from './file-errors.js';

/** Default limit of one `${file:}`: far more than a secret or a certificate, far less than memory. */
export const DEFAULT_FILE_LIMIT_BYTES = 1024 * 1024;

/** The `files` key of moor.config.yaml. */
export interface FilePolicy {
  /** Absolute folder that `${file:}` paths must stay under (default: the folder the manifests were found under). */
  readonly root?: string;
  /** Allow absolute paths and paths outside the root (kernel interfaces and non-regular files stay refused). */
  readonly allowOutsideRoot?: boolean;
  /** Absolute files or folders outside the root that may be read all the same. */
  readonly allow?: readonly string[];
  /** Largest file read, in bytes. */
  readonly maxBytes?: number;
}

export type FileReadResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

const KERNEL_FOLDERS = ['/proc', '/sys', '/dev'];

/** Reads `path` (as written in the placeholder) relative to `baseDir`, within `root` and `policy`. */
export function readPlaceholderFile(path: string, baseDir: string, root: string, policy: FilePolicy = {}): FileReadResult {
  const found = findPlaceholderFile(path, baseDir, root, policy);
  return found.ok ? readRegularFile(found.real, found.info, policy.maxBytes ?? DEFAULT_FILE_LIMIT_BYTES) : found;
}

/**
 * Whether the file of a placeholder may be read, without reading it (for validate, which reads no
 * secret): every rule of readPlaceholderFile but the read itself; a missing or unreadable file passes.
 */
export function checkPlaceholderFile(
  path: string,
  baseDir: string,
  root: string,
  policy: FilePolicy = {},
): { readonly ok: true } | { readonly ok: false; readonly message: string } {
  const found = findPlaceholderFile(path, baseDir, root, policy);
  // A secret's file is often not there where validate runs (a pull request's check has no
  // secrets): only plan and apply need it, and they name it when it is missing.
  if (!found.ok) return found.absent ? { ok: true } : found;
  try {
    accessSync(found.real, constants.R_OK);
  } catch (err) {
    // Likewise a file only the deploying user may read.
    if ((err as NodeJS.ErrnoException).code === 'EACCES') return { ok: true };
    return refuse(errnoMessage(err));
  }
  return { ok: true };
}

type Found =
  | { readonly ok: true; readonly real: string; readonly info: Stats }
  /** absent: no file at the path (a rule of the path itself would have refused it first). */
  | { readonly ok: false; readonly message: string; readonly absent?: boolean };

function findPlaceholderFile(path: string, baseDir: string, root: string, policy: FilePolicy): Found {
  const limit = policy.maxBytes ?? DEFAULT_FILE_LIMIT_BYTES;
  if (path.includes('\0')) return refuse('the path contains a NUL character');
  const target = resolve(baseDir, path);
  const outsideAllowed = (p: string) => policy.allowOutsideRoot === true || (policy.allow ?? []).some((a) => isUnder(p, a) || isUnder(p, realOrSelf(a)));
  if (isAbsolute(path) && !outsideAllowed(target)) {
    return refuse(
      `an absolute path is not allowed (paths are relative to the manifest and stay under ${root}; allow more with files.allowOutsideRoot or files.allow in moor.config.yaml)`,
    );
  }
  if (!isUnder(target, root) && !outsideAllowed(target)) return refuse(outsideMessage(root));
  let real: string;
  try {
    real = realpathSync(target);
  } catch (err) {
    // /dev/stdin on a pipe links to "pipe:[N]", which no path resolves.
    if (isKernelPath(target)) return refuse(kernelMessage(target));
    // A link whose target is not there yet (secrets/db -> /run/secrets/db, made on the deploying
    // host) is judged by where it leads: validate finds it where the pull request is checked.
    const leadsTo = linkDestination(target);
    if (leadsTo !== undefined && !isUnder(leadsTo, root) && !isUnder(leadsTo, realOrSelf(root)) && !outsideAllowed(leadsTo)) {
      return refuse(isKernelPath(leadsTo) ? kernelMessage(leadsTo) : `it links to ${leadsTo}, ${outsideMessage(root)}`);
    }
    return { ...refuse(errnoMessage(err)), absent: (err as NodeJS.ErrnoException).code === 'ENOENT' };
  }
  let info: Stats;
  try {
    info = statSync(target);
  } catch (err) {
    return refuse(errnoMessage(err));
  }
  if (!info.isFile()) return refuse(`it is ${describeKind(info)}; only regular files are read`);
  // /proc files look regular (size 0) but are generated: /proc/self/environ holds the run's tokens.
  if (isKernelPath(real)) return refuse(kernelMessage(real));
  if (!isUnder(real, realOrSelf(root)) && !outsideAllowed(real)) return refuse(`it links to ${real}, ${outsideMessage(root)}`);
  if (info.size > limit) return refuse(tooLarge(limit));
  return { ok: true, real, info };
}

/** Opens without blocking, checks it is still the file that was stat'ed, reads at most `limit` bytes. */
function readRegularFile(path: string, before: Stats, limit: number): FileReadResult {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return refuse(errnoMessage(err));
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.ino !== before.ino || info.dev !== before.dev) return refuse('it changed while being opened; only regular files are read');
    const chunks: Buffer[] = [];
    let length = 0;
    // The first read is sized to the file and a byte more, to see its end at once (two zeroed 64 KiB
    // buffers per placeholder before); a file that grew since is read on a chunk at a time.
    let size = Math.min(info.size, limit) + 1;
    for (;;) {
      const chunk = Buffer.allocUnsafeSlow(size);
      size = 64 * 1024;
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      length += n;
      // A file that grew since it was stat'ed is cut off here, not read to the end.
      if (length > limit) return refuse(tooLarge(limit));
    }
    return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
  } catch (err) {
    return refuse(errnoMessage(err));
  } finally {
    closeSync(fd);
  }
}

function isKernelPath(path: string): boolean {
  return KERNEL_FOLDERS.some((k) => isUnder(path, k));
}

function kernelMessage(path: string): string {
  return `${path} is a kernel interface, not a file`;
}

function refuse(message: string): { readonly ok: false; readonly message: string } {
  return { ok: false, message };
}

function isUnder(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Where `path` leads through symbolic links (its folders' and its own), followed without its end
 * existing; undefined when no link was followed.
 */
function linkDestination(path: string): string | undefined {
  let at = path;
  for (let hops = 0; hops < 40; hops++) {
    const here = join(realOrSelf(dirname(at)), basename(at));
    let link: string;
    try {
      link = readlinkSync(here);
    } catch {
      return here === path ? undefined : here;
    }
    at = resolve(dirname(here), link);
  }
  return at;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function outsideMessage(root: string): string {
  return `outside the manifests' root ${root} (allow it with files.allowOutsideRoot or files.allow in moor.config.yaml)`;
}

function describeKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

function tooLarge(limit: number): string {
  return `it is larger than the limit of ${limit.toLocaleString('en-US')} bytes (raise files.maxBytes in moor.config.yaml)`;
}

function errnoMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  return fileErrorWords(err) ?? code ?? (err as Error).message;
}

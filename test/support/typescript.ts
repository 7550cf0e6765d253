// TypeScript's compiler API for the tests that type-check in their own process (the dashboard's page
// types, the package's declarations). Loaded as require loads a CommonJS file, not by `import`: an
// import of its one CommonJS file (9 MB) first has Node scan the whole source for export names to offer,
// which costs about as much CPU as loading it (a bare Node: 1.3 CPU-s by import, 0.7 by require).
//
// And compiled with V8's code cache, as Node 22's module.enableCompileCache() would (Node 20 has none):
// the file's compiled code, the functions a type check compiled included, is kept on disk beside
// vitest's cache and handed to V8 on the next load, which then parses and compiles only what the cache
// lacks. V8 checks the cache against the source and its own version and flags, and rejects one that
// does not match: then the file is compiled from source, as without a cache, and the cache written anew.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

type TypeScript = typeof import('typescript');

const require = createRequire(import.meta.url);
const file = require.resolve('typescript');
const { version } = require('typescript/package.json') as { version: string };
const cacheFile = join(import.meta.dirname, '../../node_modules/.cache/moor-tests', `typescript-${version}-node${process.version}-${process.arch}.v8`);

function readCache(): Buffer | undefined {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/** The CommonJS module `file` as require loads it, compiled with the cached code when V8 takes it. */
function load(): { ts: TypeScript; script: Script; cached: boolean } {
  const cachedData = readCache();
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = new Module(file);
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  // Where require would have put it: a require('typescript') in this process gets this one.
  require.cache[file] = module;
  return { ts: module.exports as TypeScript, script, cached: cachedData !== undefined && !script.cachedDataRejected };
}

const loaded = load();
export const ts: TypeScript = loaded.ts;

/**
 * Keeps the compiled code for the next load when this one had none (or V8 rejected it): call it after a
 * type check, so the functions the check compiled are kept too. Written to a new file and renamed over
 * the old, so a load in another process reads a whole cache or none.
 */
export function keepCompiledTypeScript(): void {
  if (loaded.cached) return;
  const data = loaded.script.createCachedData();
  mkdirSync(dirname(cacheFile), { recursive: true });
  const partial = `${cacheFile}.${process.pid}.${Date.now()}`;
  writeFileSync(partial, data);
  renameSync(partial, cacheFile);
  loaded.cached = true;
}

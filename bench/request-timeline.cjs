// Preloaded (node --require) into a moor process a benchmark runs: when BENCH_TIMELINE_FILE is set,
// it writes there at exit, as JSON, when each request went out and came back (node:http), when the
// state file and the manifest files were read, and the process's CPU time, all in ms since the
// process started. A throttled run's overhead is then told apart: the start-up before the first
// request, gaps while requests could have gone out, and the tail after the last answer.
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const { syncBuiltinESMExports } = require('node:module');
const { performance } = require('node:perf_hooks');

const file = process.env.BENCH_TIMELINE_FILE;
if (file) {
  const now = () => Math.round(performance.now());
  const requests = [];
  const reads = { state: [], manifests: [] };
  // moor sends over node:http(s) (src/providers/http-fetch.ts): each request, from its start to its answer's headers.
  for (const mod of [require('node:http'), require('node:https')]) {
    const realRequest = mod.request;
    mod.request = function request(...args) {
      const entry = { start: now(), end: undefined, status: undefined };
      requests.push(entry);
      const req = realRequest.apply(this, args);
      req.once('response', (res) => {
        entry.status = res.statusCode;
        entry.end = now();
      });
      req.once('close', () => {
        entry.end ??= now();
      });
      return req;
    };
  }
  // The state file (state.json and its journal) and the manifests (*.yaml) as they are read.
  const kindOf = (path) => {
    const p = String(path);
    if (/state\.json(\.journal)?$/.test(p)) return 'state';
    return /\.ya?ml$/.test(p) ? 'manifests' : undefined;
  };
  const realReadFile = fsp.readFile;
  fsp.readFile = async (path, ...rest) => {
    const kind = kindOf(path);
    const start = now();
    const out = await realReadFile(path, ...rest);
    if (kind) reads[kind].push({ start, end: now() });
    return out;
  };
  syncBuiltinESMExports();
  process.on('exit', () => {
    const { userCPUTime, systemCPUTime } = process.resourceUsage();
    const cpuMs = { user: Math.round(userCPUTime / 1000), system: Math.round(systemCPUTime / 1000) };
    fs.writeFileSync(file, JSON.stringify({ exitAt: now(), cpuMs, reads, requests }));
  });
}

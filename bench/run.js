// npm run bench: each benchmark in its own process, so peak memory is its own.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

for (const bench of [
  'startup.js',
  'validate.js',
  'stacks.js',
  'policies.js',
  'apply.js',
  'speed.js',
  'watch-soak.js',
  'scale.js',
  'dashboard.js',
  'discover.js',
  'fleet.js',
  'accept.js',
]) {
  const file = fileURLToPath(new URL(bench, import.meta.url));
  // The soak compares memory after full collections.
  execFileSync(process.execPath, [...(bench === 'watch-soak.js' ? ['--expose-gc'] : []), file], { stdio: 'inherit' });
}

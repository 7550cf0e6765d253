// Preloaded (node --require) into a moor process a benchmark runs: at exit it writes the process's
// CPU time (user + system) in ms to the file named by BENCH_CPU_FILE, which a loaded machine does
// not inflate as it does wall time.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const file = process.env.BENCH_CPU_FILE;
  const used = process.cpuUsage();
  if (file) writeFileSync(file, String(Math.round((used.user + used.system) / 1000)));
});

// Preloaded (node --require) into a moor process a benchmark runs: at exit it writes the process's
// peak resident memory in MB to the file named by BENCH_PEAK_RSS_FILE.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const file = process.env.BENCH_PEAK_RSS_FILE;
  if (file) writeFileSync(file, String(Math.round(process.resourceUsage().maxRSS / 1024)));
});

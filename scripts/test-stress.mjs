// npm run test:stress [-- vitest arguments]: the test suite with two CPU-bound processes running
// beside it, as on a loaded CI machine; tests that wait for durations instead of conditions fail here.
// The two hogs are stopped whatever happens (the run ends, fails, or is interrupted).
import { spawn } from 'node:child_process';

const HOGS = 2;
const hogs = Array.from({ length: HOGS }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);

const vitest = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    vitest.kill(signal);
  });
}
vitest.on('close', (code, signal) => {
  stopHogs();
  console.log(`test:stress: ${HOGS} CPU-bound processes ran beside the suite; vitest ${signal ? `stopped by ${signal}` : `exited ${code}`}`);
  process.exit(code ?? 1);
});

// The CLI run in this process through main(argv, io), as the harness's `moor` runs it in a child:
// the same environment (the test's, NO_COLOR, fast polls, the cloud's endpoint and token).
//
// It is the built CLI (dist/, as bin/moor.js loads it), which the harness's local cloud and its `moor`
// already load: the sources through vitest's transform were a second copy of the whole CLI in the
// process, about 1.3-2 CPU-s to transform, load and warm up per test file that ran one.
import { join } from 'node:path';
import { cliEnv, ROOT, type Cloud, type RunResult } from '../e2e/harness.js';
import { memoryIo } from './memory-io.js';

export async function moorInProcess(cwd: string, cloud: Cloud | undefined, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  const { main } = (await import(join(ROOT, 'dist/cli/main.js'))) as typeof import('../../src/cli/main.js');
  const io = memoryIo({ cwd, env: cliEnv(cloud, env) });
  const code = await main(['node', 'moor', ...args], io);
  return { code, stdout: io.out(), stderr: io.err() };
}

// The CLI run in this process through main(argv, io), as the harness's `moor` runs it in a child:
// the same environment (the test's, NO_COLOR, fast polls, the cloud's endpoint and token).
import { main } from '../../src/cli/main.js';
import { cliEnv, type Cloud, type RunResult } from '../e2e/harness.js';
import { memoryIo } from './memory-io.js';

export async function moorInProcess(cwd: string, cloud: Cloud | undefined, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  const io = memoryIo({ cwd, env: cliEnv(cloud, env) });
  const code = await main(['node', 'moor', ...args], io);
  return { code, stdout: io.out(), stderr: io.err() };
}

// moor local-cloud: runs the local cloud as a standalone server until SIGINT or SIGTERM.
import { resolve } from 'node:path';
import type { LocalCloudFlags } from '../../localcloud/cli-options.js';
import type { RegisterCommand } from './register-command.js';
import type { IoHost, StopSignal } from '../io-host.js';

export const registerLocalCloud: RegisterCommand = (program, io, setExit) => {
  program
    .command('local-cloud')
    .description('run the built-in local cloud (every service of the seeds) as a standalone server')
    .option('--port <n>', 'port to listen on; 0 picks a free one (env MOOR_LOCAL_CLOUD_PORT)')
    .option('--host <address>', 'address to listen on (default 127.0.0.1; env MOOR_LOCAL_CLOUD_HOST)')
    .option('--data <file>', 'data file (default .moor/local-cloud.json; env MOOR_LOCAL_CLOUD_DATA)')
    .option('--token <token>', 'the bearer token clients must send (default local-dev-token; env MOOR_TOKEN)')
    .option('--expiring-tokens', 'also accept TOKEN.EXPIRY (unix seconds) until it expires, to rehearse token renewal')
    .option('--latency <ms>', 'delay added to every response (env MOOR_LATENCY)')
    .option('--fail-rate <p>', 'probability 0..1 of an injected 500, 503, 429 or dropped connection (env MOOR_FAIL_RATE)')
    .option('--fault-seed <n>', 'seed of the injected faults, to replay a run (default random, printed; env MOOR_FAULT_SEED)')
    .option('--fault-retry-after <s>', 'the Retry-After of an injected 429, in seconds (default 1; env MOOR_FAULT_RETRY_AFTER)')
    .option('--rate-limit <r>', 'requests per second per service and class, burst 10x (env MOOR_RATE_LIMIT)')
    .option('--provisioning-ms <ms>', 'how long asynchronous provisioning takes (default 1000; env MOOR_PROVISIONING_MS)')
    .option(
      '--operation-phase-ms <ms>',
      'how long each phase of a database-movement operation lasts (default the provisioning time; env MOOR_LOCAL_CLOUD_ASYNC_MS)',
    )
    .option(
      '--rate-window-ms <ms>',
      "the window of the eventstreams workspace limit of 50 requests (default the service's 10000; env MOOR_LOCAL_CLOUD_RATE_WINDOW_MS)",
    )
    .option('--no-seed', 'start without demo data')
    .option('--fixtures <file>', 'add your own projects, environments, quotas, workspaces and conversations (YAML; env MOOR_LOCAL_CLOUD_FIXTURES)')
    .option(
      '--brand-word <word>',
      "also route ARM namespaces of this word (e.g. Microsoft) as the seeds' Vendor, for official clients (env MOOR_LOCAL_CLOUD_BRAND_WORD)",
    )
    .option(
      '--request-log <file>',
      'append one JSON line per request to FILE: time, method, path, status, request id and User-Agent (env MOOR_LOCAL_CLOUD_REQUEST_LOG)',
    )
    .option('--tls', 'serve https with a self-signed certificate kept beside the data file (env MOOR_LOCAL_CLOUD_TLS=1)')
    .action(async (flags: LocalCloudFlags) => {
      setExit(await runLocalCloud(flags, io));
    });
};

async function runLocalCloud(flags: LocalCloudFlags, io: IoHost): Promise<number> {
  const { DEFAULT_DATA_FILE, localCloudOptions } = await import('../../localcloud/cli-options.js');
  const { startLocalCloud } = await import('../../localcloud/server.js');
  const { UserError } = await import('../../core/diagnostics.js');
  const options = localCloudOptions(flags, io.env);
  // Relative files are the run's folder's, not the process's (an embedding program runs many folders).
  const fixtures = options.fixtures === undefined ? undefined : resolve(io.cwd, options.fixtures);
  let cloud;
  try {
    cloud = await startLocalCloud({
      ...options,
      dataFile: resolve(io.cwd, options.dataFile ?? DEFAULT_DATA_FILE),
      fixtures,
      ...(options.requestLog !== undefined ? { requestLog: resolve(io.cwd, options.requestLog) } : {}),
      ...(io.now ? { now: io.now } : {}),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'the address is in use' : (err as Error).message;
    throw new UserError(`cannot start the local cloud: ${why}`, [], { cause: err });
  }
  io.stdout.write(`listening on ${cloud.url}\n`);
  io.stderr.write(`local cloud: data in ${options.dataFile}; stop with Ctrl-C\n`);
  if (cloud.certFile) io.stderr.write(`local cloud: https certificate ${cloud.certFile} (clients: NODE_EXTRA_CA_CERTS=${cloud.certFile})\n`);
  if (options.failRate)
    io.stderr.write(`local cloud: injecting faults at rate ${options.failRate}, seed ${options.faultSeed} (--fault-seed ${options.faultSeed} replays them)\n`);
  const signal = await new Promise<StopSignal>((stopped) => {
    const stopListening = io.onSignals(['SIGINT', 'SIGTERM'], (s) => {
      stopListening();
      stopped(s);
    });
  });
  await cloud.close();
  io.stderr.write(`local cloud: ${signal}, data written, stopped\n`);
  return 0;
}

// The local cloud: one node:http server hosting every emulated service on one port.
import { createServer, type RequestListener } from 'node:http';
import { rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DataStore } from './data-store.js';
import { resolveOptions, type LocalCloudOptions } from './options.js';
import { createPipeline } from './request-pipeline.js';
import { RequestLog } from './request-log.js';
import { createRouter } from './router.js';
import { SERVICES } from './services/index.js';
import { loadOrCreateCertificate } from './tls-certificate.js';
import type { LocalService } from './types.js';

export type { LocalCloudOptions } from './options.js';

export interface LocalCloud {
  /** Base address, e.g. http://127.0.0.1:4010 (no trailing slash). */
  readonly url: string;
  /** With tls: the certificate file clients trust (NODE_EXTRA_CA_CERTS). */
  readonly certFile?: string;
  /** Stops listening, drops open connections and writes pending data. */
  close(): Promise<void>;
}

/** Starts the local cloud; resolves once it listens. */
export async function startLocalCloud(options: LocalCloudOptions = {}, services: readonly LocalService[] = SERVICES): Promise<LocalCloud> {
  const opts = resolveOptions(options);
  // fixtures.js is imported only for a fixtures file: it brings the YAML parser, which a start without one never reads.
  let addFixtures: ((store: DataStore) => void) | undefined;
  if (opts.fixtures) {
    const { applyFixtures, readFixtures } = await import('./fixtures.js');
    const fixtures = readFixtures(opts.fixtures);
    addFixtures = (store) => applyFixtures(store, fixtures);
  }
  const store = await DataStore.open(opts.dataFile);
  if (opts.seed) seedFreshStores(store, services);
  addFixtures?.(store);

  let url = '';
  const requestLog = opts.requestLog ? new RequestLog(opts.requestLog) : undefined;
  const pipeline = createPipeline(createRouter(services), store, opts, () => url, requestLog);
  const listener: RequestListener = (req, res) => {
    pipeline.handle(req, res).catch((err: unknown) => {
      if (req.destroyed && !req.complete) return; // the client left; nobody to answer
      process.stderr.write(`local-cloud: request failed: ${err instanceof Error ? err.message : String(err)}\n`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  };
  const tls = opts.tls ? await loadOrCreateCertificate(opts.dataFile, opts.host) : undefined;
  const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, listener) : createServer(listener);
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `${tls ? 'https' : 'http'}://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    certFile: tls?.certFile,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await stopped;
        await store.close();
        await requestLog?.close();
        // A certificate made for this run alone (no data file to keep it beside) and its key go with it.
        if (tls?.temporaryFolder) await rm(tls.temporaryFolder, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

function seedFreshStores(store: DataStore, services: readonly LocalService[]): void {
  let seeded = false;
  for (const service of services) {
    const data = store.dataFor(service.name);
    if (service.seed && store.isFresh(service.name)) {
      service.seed(data);
      seeded = true;
    }
  }
  if (seeded) store.save();
}

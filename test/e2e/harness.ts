// End-to-end harness: `moor local-cloud` and the built CLI, over real HTTP, in the test's own process
// (the CLI's and the cloud's processes of their own are in processes.ts).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { StopSignal } from '../../src/cli/io-host.js';
import type { ParsedJson } from '../support/parsed-json.js';
import type { TestClock } from '../support/test-clock.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const TOKEN = 'e2e-token';

export interface Cloud {
  readonly url: string;
  stop(): Promise<void>;
}

export interface CloudOptions {
  readonly dataFile?: string;
  readonly failRate?: number;
  readonly latencyMs?: number;
  readonly rateLimit?: number;
  /** More `moor local-cloud` flags (e.g. --expiring-tokens). */
  readonly args?: readonly string[];
  /** Extra environment of the cloud's run (e.g. MOOR_LOCAL_CLOUD_ASYNC_MS), over the harness's defaults. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The clock the cloud reads (test/support/test-clock.ts): with a long MOOR_PROVISIONING_MS or
   * MOOR_LOCAL_CLOUD_ASYNC_MS, what the cloud runs stays running until the test advances it. In process only.
   */
  readonly clock?: TestClock;
}

/** How long a test's cloud takes to provision and to run each phase of a database job (the built-in cloud reads them too). */
export const CLOUD_PACE: NodeJS.ProcessEnv = { MOOR_PROVISIONING_MS: '100', MOOR_LOCAL_CLOUD_ASYNC_MS: '100' };

/** The pace of a test's cloud: short provisioning and operations, and an injected 429 that asks for no wait. */
export const CLOUD_ENV: NodeJS.ProcessEnv = { ...CLOUD_PACE, MOOR_FAULT_RETRY_AFTER: '0' };

/** The `moor local-cloud --port 0 ...` arguments of a test's cloud, its data in a file of its own. */
export function cloudArgs(options: CloudOptions): string[] {
  // Every cloud keeps its data in its own file, never in the repository's .moor/.
  const dataFile = options.dataFile ?? join(mkdtempSync(join(tmpdir(), 'moor-cloud-')), 'cloud.json');
  const args = ['local-cloud', '--port', '0', '--token', TOKEN, '--data', dataFile];
  if (options.failRate !== undefined) args.push('--fail-rate', String(options.failRate));
  if (options.latencyMs !== undefined) args.push('--latency', String(options.latencyMs));
  if (options.rateLimit !== undefined) args.push('--rate-limit', String(options.rateLimit));
  return [...args, ...(options.args ?? [])];
}

/** The address in the `listening on URL` line the local cloud prints first. */
export const LISTENING = /listening on (https?:\/\/\S+)/;

/**
 * Starts the local cloud as `moor local-cloud --port 0` does, in this process (main(argv, io) of the
 * built CLI: the same flags, variables and real HTTP server), and waits for its `listening on URL` line.
 * stop() sends the run SIGTERM, as the process variant does, so the data is written before it resolves.
 * A process start costs more than most tests' use of the cloud; `startCloudProcess` is for a test that
 * needs the cloud in a process of its own.
 */
export async function startCloud(options: CloudOptions = {}): Promise<Cloud> {
  const { main } = (await import(join(ROOT, 'dist/cli/main.js'))) as typeof import('../../src/cli/main.js');
  const { memoryIo, written } = await import('../support/memory-io.js');
  const io = memoryIo({ cwd: ROOT, env: { ...process.env, ...CLOUD_ENV, ...options.env }, now: options.clock?.now });
  // Its stderr reaches the test's, as a child's inherited stderr did: the fault seed that replays a failure.
  const writeErr = io.stderr.write.bind(io.stderr);
  io.stderr.write = (chunk) => {
    process.stderr.write(chunk);
    return writeErr(chunk);
  };
  const url = written(io, 'stdout', LISTENING).then((m) => m[1]);
  const run = main(['node', 'moor', ...cloudArgs(options)], io);
  const exited = run.then((code) => {
    throw new Error(`local cloud exited with ${code}: ${io.err().trim()}`);
  });
  const address = await Promise.race([url, exited]);
  exited.catch(() => undefined); // a later exit is stop()'s, awaited there
  let stopped: Promise<void> | undefined;
  return {
    url: address,
    stop: () => (stopped ??= (io.signal('SIGTERM'), run.then(() => undefined))),
  };
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment a test's CLI run gets: the test's, no colour, fast polls, the cloud's endpoint and token, then `env`. */
export function cliEnv(cloud: Cloud | undefined, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NO_COLOR: '1',
    MOOR_POLL_INTERVAL_MS: '50',
    ...(cloud ? { MOOR_ENDPOINT: cloud.url, MOOR_TOKEN: TOKEN } : {}),
    ...env,
  };
}

/** Variables Node reads once, when a process starts: a run in this process would silently ignore them. */
const READ_AT_PROCESS_START = new Set(['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS']);

/**
 * Runs the built CLI (dist/, as bin/moor.js loads it) in `cwd` against the cloud through main(argv, io)
 * in this process, with the environment a child would get and no terminal; resolves with exit code and
 * output. A process start costs more than most commands under test, so only tests that kill or pipe the
 * CLI, or need its own process, spawn it (`moorProcess`). vitest.config.ts leaves dist/ to Node's own loader.
 */
export function moor(cwd: string, cloud: Cloud | undefined, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return startMoor(cwd, cloud, args, env);
}

/** A run of the CLI in this process that the test watches while it runs. */
export interface MoorRun extends Promise<RunResult> {
  /** The first match of `pattern` in what the run has written, or writes later, to stdout or stderr. */
  written(pattern: RegExp): Promise<RegExpExecArray>;
  /** Sends the run a stop signal, as Ctrl-C or a kill would to the process. */
  signal(signal: StopSignal): void;
}

/** How a run of the CLI in this process is set up beyond its arguments and environment. */
export interface MoorRunOptions {
  /** The run's clock (io.now), e.g. the test clock its cloud reads: the run judges its tokens' expiry by it. */
  readonly clock?: TestClock;
}

/** `moor` that the test can watch and signal while it runs (its output so far, SIGINT). */
export function startMoor(cwd: string, cloud: Cloud | undefined, args: readonly string[], env: NodeJS.ProcessEnv = {}, options: MoorRunOptions = {}): MoorRun {
  const atStart = Object.keys(env).filter((name) => READ_AT_PROCESS_START.has(name));
  const started = (async () => {
    if (atStart.length > 0) throw new Error(`${atStart.join(', ')} is read when a process starts: run this CLI with moorProcess`);
    const { main } = (await import(join(ROOT, 'dist/cli/main.js'))) as typeof import('../../src/cli/main.js');
    const support = await import('../support/memory-io.js');
    return { main, support, io: support.memoryIo({ cwd, env: cliEnv(cloud, env), now: options.clock?.now }) };
  })();
  const done = started.then(async ({ main, io }) => {
    const code = await main(['node', 'moor', ...args], io);
    return { code, stdout: io.out(), stderr: io.err() };
  });
  return Object.assign(done, {
    written: async (pattern: RegExp) => {
      const { support, io } = await started;
      return Promise.race([
        support.written(io, 'stdout', pattern),
        support.written(io, 'stderr', pattern),
        done.then((r) => {
          throw new Error(`the run ended (exit ${r.code}) without writing ${pattern}:\n${r.stdout}${r.stderr}`);
        }),
      ]);
    },
    signal: (signal: StopSignal) => {
      void started.then(({ io }) => io.signal(signal));
    },
  });
}

/** A fresh working directory with the given files (path -> content). */
export function workdir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'moor-e2e-'));
  for (const [path, content] of Object.entries(files)) writeFile(dir, path, content);
  return dir;
}

export function writeFile(dir: string, path: string, content: string): void {
  const full = join(dir, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
}

/** A request to the cloud as an out-of-band client would send it (retrying injected faults). */
export async function cloudRequest(cloud: Cloud, method: string, path: string, body?: unknown): Promise<{ status: number; body: ParsedJson }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(cloud.url + path, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if ((res.status >= 500 || res.status === 429) && attempt < 30) continue;
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    } catch (err) {
      if (attempt >= 30) throw err;
    }
  }
}

/** The provisioning states after which a resource takes writes again (ARM's terminal states). */
const TERMINAL_PROVISIONING = new Set(['Succeeded', 'Failed', 'Canceled']);

/**
 * Waits until the resource at `path` is no longer provisioning (its provisioningState is terminal, or it
 * is gone): a test that writes behind moor's back waits for this before and after its write, so the next
 * write (its own or moor's) never meets the operation still running (409 AnotherOperationInProgress).
 * A condition polled every few milliseconds; the bound only turns a stuck operation into a clear failure.
 */
export async function untilProvisioned(cloud: Cloud, path: string, boundMs = 30_000): Promise<void> {
  const giveUpAt = Date.now() + boundMs;
  for (;;) {
    const res = await cloudRequest(cloud, 'GET', path);
    const state = res.body?.properties?.provisioningState as string | undefined;
    if (res.status === 404 || (res.status === 200 && (state === undefined || TERMINAL_PROVISIONING.has(state)))) return;
    if (Date.now() > giveUpAt) throw new Error(`${path} still ${state ?? `answers ${res.status}`} after ${boundMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An out-of-band PUT of `path` once nothing runs on it, settled before it resolves; its answer as cloudRequest gives it. */
export async function putBehindMoor(cloud: Cloud, path: string, body: unknown): Promise<{ status: number; body: ParsedJson }> {
  await untilProvisioned(cloud, path);
  const res = await cloudRequest(cloud, 'PUT', path, body);
  if (res.status < 300) await untilProvisioned(cloud, path);
  return res;
}

export const SUB = '8f0e0c49-3b5a-4d62-9d1c-6a0f1f0b4a11';

/** Every page of a cloud listing, following its absolute continuationUri / nextLink. */
export async function pages(cloud: Cloud, path: string, link: 'continuationUri' | 'nextLink'): Promise<ParsedJson[][]> {
  const out: ParsedJson[][] = [];
  for (let next: string | undefined = path; next;) {
    const res = await cloudRequest(cloud, 'GET', next);
    if (res.status !== 200) throw new Error(`GET ${next}: ${res.status} ${JSON.stringify(res.body)}`);
    out.push(res.body.value);
    next = res.body[link] ? String(res.body[link]).slice(cloud.url.length) : undefined;
  }
  return out;
}

/** Every container group the cloud lists in a resource group, as it answers them. */
export async function listedGroups(
  cloud: Cloud,
  rg = 'rg-e2e',
  sub = SUB,
): Promise<{ name: string; systemData: { createdAt: string; lastModifiedAt: string } }[]> {
  return (
    await pages(cloud, `/subscriptions/${sub}/resourceGroups/${rg}/providers/Vendor.ContainerInstance/containerGroups?api-version=2026-07-01`, 'nextLink')
  ).flat();
}

/** A container-group manifest with a secret from a file beside it. */
export function groupManifest(
  name: string,
  options: { image?: string; cpu?: number; tags?: Record<string, string>; extra?: string; resourceGroup?: string } = {},
): string {
  const tags = options.tags
    ? `\n  tags:\n${Object.entries(options.tags)
        .map(([k, v]) => `    ${k}: ${v}`)
        .join('\n')}`
    : '';
  return `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: ${name}
spec:
  subscriptionId: ${SUB}
  resourceGroup: ${options.resourceGroup ?? 'rg-e2e'}
  location: westeurope${tags}
  properties:
    osType: Linux
    containers:
      - name: app
        properties:
          image: ${options.image ?? 'nginx:1.27'}
          resources:
            requests:
              cpu: ${options.cpu ?? 1}
              memoryInGB: 1.5
          ports:
            - port: 80
          environmentVariables:
            - name: MODE
              value: production
            - name: DB_PASSWORD
              secureValue: \${file:secret.txt}
${options.extra ?? ''}`;
}

/** What groupManifest's group is on the wire (a PUT's body behind moor's back), its secret's value given. */
export function groupBody(secret: string) {
  return {
    location: 'westeurope',
    properties: {
      osType: 'Linux',
      containers: [
        {
          name: 'app',
          properties: {
            image: 'nginx:1.27',
            resources: { requests: { cpu: 1, memoryInGB: 1.5 } },
            ports: [{ port: 80 }],
            environmentVariables: [
              { name: 'MODE', value: 'production' },
              { name: 'DB_PASSWORD', secureValue: secret },
            ],
          },
        },
      ],
    },
  };
}

export const ARM_PATH = (name: string) =>
  `/subscriptions/${SUB}/resourceGroups/rg-e2e/providers/Vendor.ContainerInstance/containerGroups/${name}?api-version=2026-07-01`;

export const WORKSPACE = '0b6f3c2e-4d1a-4f7b-9e8c-2a5d6f7e8a91';

export interface DatasetOptions {
  readonly amountType?: string;
  readonly extraMeasure?: boolean;
  readonly extraTable?: boolean;
  readonly crossFiltering?: string;
  readonly protect?: boolean;
  readonly datasetName?: string;
}

/** A two-table dataset with a measure and a relationship; options change one thing each. */
export function datasetManifest(name: string, o: DatasetOptions = {}): string {
  return `apiVersion: moor/v1
kind: PushDataset
metadata:
  name: ${name}${o.protect ? '\n  protect: true' : ''}
spec:
  workspaceId: ${WORKSPACE}
  name: ${o.datasetName ?? name}
  defaultRetentionPolicy: basicFIFO
  defaultMode: Push
  tables:
    - name: Product
      columns:
        - {name: ProductID, dataType: Int64}
        - {name: Name, dataType: string}
    - name: Orders
      columns:
        - {name: OrderID, dataType: Int64}
        - {name: ProductID, dataType: Int64}
        - {name: Amount, dataType: ${o.amountType ?? 'Double'}}
      measures:
        - {name: Total, expression: "SUM(Orders[Amount])"}${o.extraMeasure ? '\n        - {name: Count, expression: "COUNTROWS(Orders)"}' : ''}${
          o.extraTable
            ? `
    - name: Returns
      columns:
        - {name: OrderID, dataType: Int64}`
            : ''
        }
  relationships:
    - name: OrdersToProduct
      fromTable: Orders
      fromColumn: ProductID
      toTable: Product
      toColumn: ProductID
      crossFilteringBehavior: ${o.crossFiltering ?? 'OneDirection'}
`;
}

/** The workspace's datasets with this name (ids). */
export async function datasetIdsNamed(cloud: Cloud, name: string): Promise<string[]> {
  const list = await cloudRequest(cloud, 'GET', `/v1.0/myorg/groups/${WORKSPACE}/datasets`);
  return (list.body.value as { id: string; name: string }[]).filter((d) => d.name === name).map((d) => d.id);
}

/** The local cloud's demo project and environments of database movement. */
export const PROJECT = '1234567';
export const ENV = {
  prod: 'a1b2c3d4-0000-4000-8000-000000000001',
  uat: 'a1b2c3d4-0000-4000-8000-000000000002',
  test: 'a1b2c3d4-0000-4000-8000-000000000003',
} as const;

export function refreshManifest(name: string, o: { source?: string; target?: string; revision: string; exportFirst?: string; dependsOn?: string[] }): string {
  return `apiVersion: moor/v1
kind: DatabaseRefresh
metadata:
  name: ${name}${o.dependsOn ? `\n  dependsOn: [${o.dependsOn.join(', ')}]` : ''}
spec:
  projectId: "${PROJECT}"
  sourceEnvironmentId: ${o.source ?? ENV.prod}
  targetEnvironmentId: ${o.target ?? ENV.uat}
  revision: "${o.revision}"${o.exportFirst ? `\n  exportTargetFirst:\n    backupName: ${o.exportFirst}` : ''}
`;
}

export function exportManifest(name: string, o: { environment?: string; backupName: string; revision: string }): string {
  return `apiVersion: moor/v1
kind: DatabaseExport
metadata:
  name: ${name}
spec:
  projectId: "${PROJECT}"
  environmentId: ${o.environment ?? ENV.test}
  backupName: ${o.backupName}
  revision: "${o.revision}"
`;
}

export interface OperationEntry {
  time: string;
  kind: 'export' | 'refresh';
  activityId: string;
  backupName?: string;
  sourceEnvironmentId?: string;
  status: string;
}

/** The local-only operation log of an environment, oldest first. */
export async function operationsOf(cloud: Cloud, environmentId: string): Promise<OperationEntry[]> {
  const res = await cloudRequest(cloud, 'GET', `/databasemovement/v1/_local/environment/${environmentId}/operations`);
  return res.body.operations as OperationEntry[];
}

export function authManifest(
  name: string,
  props: { displayName?: string; description?: string; isAvailable?: boolean; id?: string },
  dependsOn?: string[],
): string {
  const lines = Object.entries(props)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `apiVersion: moor/v1
kind: AuthContext
metadata:
  name: ${name}${dependsOn ? `\n  dependsOn: [${dependsOn.join(', ')}]` : ''}
spec:
${lines}
`;
}

/** A Policy document: its name, what it matches (flow YAML, e.g. `{kinds: [AuthContext]}`) and its rules. */
export function policyManifest(name: string, match: string, rules: { expression: string; message: string; fieldPath?: string }[]): string {
  const ruleLines = rules.map((r) =>
    [`    - expression: ${JSON.stringify(r.expression)}`, `      message: ${r.message}`, ...(r.fieldPath ? [`      fieldPath: ${r.fieldPath}`] : [])].join(
      '\n',
    ),
  );
  return `apiVersion: moor/v1\nkind: Policy\nmetadata: {name: ${name}}\nspec:\n  match: ${match}\n  rules:\n${ruleLines.join('\n')}\n`;
}

export const AUTH_PATH = (id: string) => `/beta/identity/conditionalAccess/authenticationContextClassReferences/${id}`;

/** State as moor reads it (the file plus its journal), through the built backend. */
export async function readState(dir: string): Promise<{ serial: number; resources: Record<string, ParsedJson> }> {
  const { FileStateBackend } = await import(join(ROOT, 'dist/engine/state/file-backend.js'));
  return new FileStateBackend(join(dir, '.moor/state.json')).read();
}

/** An auth context whose displayName is a number: a schema error at line 6, column 16. */
export const INVALID_AUTH_CONTEXT = `apiVersion: moor/v1
kind: AuthContext
metadata:
  name: c2
spec:
  displayName: 12
`;

// The services' official clients against `moor local-cloud --tls`: each runs its operations with
// only a base URL and a credential (no custom policy or middleware), trusting the printed
// certificate through NODE_EXTRA_CA_CERTS as a user would (the clients' scripts share one process
// started with it, test/official-clients/host.mjs; moor runs in processes of its own). The cloud is started as docs/local-cloud.md
// starts it (its flags and token read from the page), and the page's plan line and its snippet of the
// three clients run against it.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { groupManifest, ROOT, startCloud, SUB, workdir, type Cloud } from './harness.js';
import { moorProcess } from './processes.js';

/** A process that runs the clients' scripts one after another (test/official-clients/host.mjs), started with `env`. */
function clientHost(env: NodeJS.ProcessEnv): { run(script: string, args: string[]): Promise<Record<string, unknown>>; stop(): Promise<void> } {
  const child = spawn(process.execPath, [join(ROOT, 'test/official-clients/host.mjs')], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: { resolve: (line: string) => void; reject: (err: Error) => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.resolve(line));
  const exited = new Promise<void>((res) =>
    child.once('close', (code) => {
      for (const w of waiting.splice(0)) w.reject(new Error(`the clients' process exited (${code}) before answering`));
      res();
    }),
  );
  return {
    run: (script, args) =>
      new Promise<string>((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify({ script, args })}\n`);
      }).then((line) => {
        const answer = JSON.parse(line) as { report?: Record<string, unknown>; error?: string };
        if (answer.error !== undefined) throw new Error(`${script}: ${answer.error}`);
        return answer.report!;
      }),
    stop: () => {
      child.stdin.end();
      return exited;
    },
  };
}

/** The https example of docs/local-cloud.md: the cloud's line, the certificate's export and the plan line (continuations joined, comments cut). */
function documentedHttps(): { cloudArgs: string[]; port: string; token: string; certPath: string; planEnv: Record<string, string>; planArgs: string[] } {
  const page = readFileSync(join(ROOT, 'docs/local-cloud.md'), 'utf8');
  const block = /```sh\n(npx moor local-cloud --tls[\s\S]*?)```/.exec(page)![1];
  const [serve, exported, plan] = block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
  const args = /^npx moor local-cloud (.+) &$/.exec(serve)![1].split(/\s+/);
  const flag = (name: string) => args[args.indexOf(name) + 1];
  const words = plan.split(/\s+/);
  const planEnv = Object.fromEntries(words.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  expect(words.slice(Object.keys(planEnv).length, Object.keys(planEnv).length + 2)).toEqual(['npx', 'moor']);
  return {
    // Its own port, not the page's (another test may hold it): the harness gives --port 0.
    cloudArgs: args.filter((a, i) => a !== '--port' && args[i - 1] !== '--port'),
    port: flag('--port'),
    token: flag('--token'),
    certPath: /^export NODE_EXTRA_CA_CERTS=(\S+)$/.exec(exported)![1],
    planEnv,
    planArgs: words.slice(Object.keys(planEnv).length + 2),
  };
}

const documented = documentedHttps();

describe('official clients over https', () => {
  let cloud: Cloud;
  let certFile: string;
  let folder: string;
  let host: ReturnType<typeof clientHost> | undefined;
  const token = documented.token;
  beforeAll(async () => {
    // The page's folder ($PWD) with the cloud's data where it keeps it by default: the certificate is beside it.
    folder = mkdtempSync(join(tmpdir(), 'moor-tls-'));
    mkdirSync(join(folder, '.moor'));
    cloud = await startCloud({ dataFile: join(folder, '.moor', 'local-cloud.json'), args: documented.cloudArgs });
    certFile = documented.certPath.replace('$PWD', folder);
  });
  afterAll(async () => {
    await host?.stop();
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  /** Runs one client script in the clients' process (started on first use: NODE_EXTRA_CA_CERTS is read at start) and gives its report. */
  function client(script: string, ...more: string[]): Promise<Record<string, unknown>> {
    host ??= clientHost({ ...process.env, NODE_EXTRA_CA_CERTS: certFile });
    return host.run(script, [cloud.url, token, SUB, ...more]);
  }

  test('the cloud serves https with a certificate kept beside its data, where the page tells NODE_EXTRA_CA_CERTS to look', () => {
    expect(documented.cloudArgs).toEqual(expect.arrayContaining(['--tls', '--brand-word', 'Microsoft']));
    expect(cloud.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(certFile)).toBe(true);
  });

  test("the page's plan line runs over https against it: its endpoint and token are the cloud line's", async () => {
    expect(documented.planEnv).toEqual({ MOOR_ENDPOINT: `https://127.0.0.1:${documented.port}`, MOOR_TOKEN: token });
    const dir = workdir();
    cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
    const plan = await moorProcess(dir, cloud, documented.planArgs, { NODE_EXTRA_CA_CERTS: certFile, MOOR_TOKEN: token });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/Plan: [1-9]\d* to create/);
  });

  test("the page's snippet of the three official clients runs as written (the page's address made the cloud's)", async () => {
    expect(await client('documented.mjs', `https://127.0.0.1:${documented.port}`)).toEqual({ usage: true, contexts: true, members: true });
  });

  test('the container-instance client creates, reads, lists, reads all usage and deletes a group', async () => {
    expect(await client('container-instance.mjs')).toEqual({
      created: 'Succeeded',
      fetched: 'sdk-web',
      listed: ['sdk-web'],
      gone: true,
      usage: ['ContainerGroups', 'StandardCores', 'StandardK80Cores', 'StandardP100Cores', 'StandardV100Cores'],
    });
  });

  test('the Graph client upserts, reads, lists and deletes an auth context', async () => {
    expect(await client('graph.mjs')).toEqual({ got: 'From the SDK', listed: ['c42'], gone: true });
  });

  test('the connector client sends, edits and deletes an activity and lists members', async () => {
    expect(await client('connector.mjs')).toMatchObject({ sent: true });
  });

  test('moor itself applies over https trusting the same certificate', async () => {
    const dir = workdir({ 'm/web.yaml': groupManifest('tls-web'), 'm/secret.txt': 's3cret-value' });
    const apply = await moorProcess(dir, cloud, ['apply', 'm', '--auto-approve'], { NODE_EXTRA_CA_CERTS: certFile, MOOR_TOKEN: token });
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain('ContainerGroup/tls-web');
  });
});

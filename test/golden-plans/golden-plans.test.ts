// Golden pairs: a manifest set in, the plan text and JSON out, for each kind and situation
// (create, update, replace, drift, no-op; jobs run / revision-changed / no-op; checks pass / fail),
// plus a create with a value known only after apply, a resource made elsewhere that already matches
// and one deleted outside moor.
//
// Each case is a folder <kind>/<case>/ holding:
//   before/          manifests applied first (optional)
//   out-of-band.json requests sent straight to the local cloud after that, to make drift (optional)
//   manifests/       the set planned
//   plan.txt         expected `moor plan` text (stdout, then stderr when there is any)
//   plan.json        expected `moor plan --output json`
//
// The machine is loaded, so one standalone local cloud and one apply serve every case: all the
// `before/` sets are applied together into one state, then each case is planned with --target set
// to its own addresses, so the other cases' records in that state stay out of its plan. The plans
// run in this process through main(argv, io), as `moor plan` in the work directory would (two
// in-process runs give what two processes give: test/cli/main-in-process.test.ts); no CLI start-up per plan.
// Update the goldens after a deliberate output change (inspect the diff first) with:
//   npm run build && npx vitest run test/golden-plans -u
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloudRequest, moor, readState, startCloud, workdir, type Cloud, type RunResult } from '../e2e/harness.js';
import { moorInProcess } from '../support/main-in-process.js';

const HERE = import.meta.dirname;

interface GoldenCase {
  /** `<kind>/<case>`, also the folder of the case in the work directory. */
  readonly name: string;
  readonly dir: string;
  /** The plan's exit code. */
  readonly exitCode: number;
}

/** Cases whose plan exits non-zero: an error-severity check that fails fails the plan. */
const EXIT_CODES: Readonly<Record<string, number>> = { 'check/fail': 1 };

interface OutOfBandRequest {
  readonly why: string;
  readonly method: string;
  /** `${id:ADDRESS}` is replaced by the id moor recorded for ADDRESS (a push dataset's generated id). */
  readonly path: string;
  readonly body?: unknown;
  /** For an asynchronous change (a container group's DELETE): GET the path until it answers this status. */
  readonly untilStatus?: number;
}

/** Sends one out-of-band request and, when it says so, waits for the cloud to have finished it. */
async function sendOutOfBand(cloud: Cloud, req: OutOfBandRequest, path: string): Promise<{ status: number; body: unknown }> {
  const res = await cloudRequest(cloud, req.method, path, req.body);
  if (req.untilStatus === undefined || res.status >= 300) return res;
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await cloudRequest(cloud, 'GET', path)).status === req.untilStatus) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { status: 599, body: `${path} never answered ${req.untilStatus}` };
}

const CASES: readonly GoldenCase[] = readdirSync(HERE, { withFileTypes: true })
  .filter((kind) => kind.isDirectory())
  .flatMap((kind) => readdirSync(join(HERE, kind.name), { withFileTypes: true })
    .filter((c) => c.isDirectory())
    .map((c) => `${kind.name}/${c.name}`))
  .map((name) => ({ name, dir: join(HERE, name), exitCode: EXIT_CODES[name] ?? 0 }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** The addresses (Kind/name) of every manifest under a folder. */
function addressesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as { kind: string; metadata: { name: string } }))
    .map((m) => `${m.kind}/${m.metadata.name}`);
}

/**
 * What legitimately varies between runs, and only that: the local cloud's address (its port); in
 * the JSON, the state serial (it counts the writes of every case sharing the state) and the order
 * of diagnostics (the JSON keeps the order concurrent checks answered in; the text sorts them by
 * file, line, column, and so does this). Generated ids and timestamps do not reach these plans;
 * if one ever does, normalise it here by name.
 */
function normaliseText(out: string, cloud: Cloud): string {
  return out.replaceAll(cloud.url, 'http://local-cloud');
}

interface JsonDiagnostic { file: string | null; line: number | null; col: number | null }

function normaliseJson(out: string, cloud: Cloud): string {
  const doc = JSON.parse(normaliseText(out, cloud)) as { serial?: unknown; diagnostics?: JsonDiagnostic[] };
  if (doc.serial !== undefined) doc.serial = '<serial>';
  doc.diagnostics?.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
  return JSON.stringify(doc, null, 2) + '\n';
}

function printed(r: RunResult, cloud: Cloud): string {
  return normaliseText(r.stderr ? `${r.stdout}--- stderr ---\n${r.stderr}` : r.stdout, cloud);
}

describe('golden plans: manifest set in, plan text and JSON out', () => {
  let cloud: Cloud;
  let work: string;

  beforeAll(async () => {
    cloud = await startCloud();
    work = workdir();
    for (const c of CASES) {
      cpSync(join(c.dir, 'manifests'), join(work, c.name, 'manifests'), { recursive: true });
      if (existsSync(join(c.dir, 'before'))) cpSync(join(c.dir, 'before'), join(work, 'before', c.name), { recursive: true });
    }
    // One at a time: the jobs share environments, which take one operation at a time.
    const applied = await moor(work, cloud, ['apply', 'before', '--auto-approve', '--parallelism', '1']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const state = await readState(work);
    for (const c of CASES) {
      const file = join(c.dir, 'out-of-band.json');
      if (!existsSync(file)) continue;
      for (const req of JSON.parse(readFileSync(file, 'utf8')) as OutOfBandRequest[]) {
        const path = req.path.replace(/\$\{id:([^}]+)\}/g, (_, address: string) => String(state.resources[address]?.id));
        const res = await sendOutOfBand(cloud, req, path);
        expect(res.status, `${c.name}: ${req.why}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      }
    }
  }, 180_000); // one apply of every case's before/ set, jobs one at a time, on a loaded machine

  afterAll(async () => { await (cloud as Cloud | undefined)?.stop(); }); // unset if beforeAll failed

  test('every kind has a golden pair for each situation it has', () => {
    const resource = ['create', 'update', 'replace', 'drift', 'no-op'];
    const job = ['run', 'revision-changed', 'no-op'];
    const required: Record<string, string[]> = {
      'container-group': resource, 'auth-context': resource, 'push-dataset': resource,
      'database-refresh': job, 'database-export': job, check: ['pass', 'fail'],
    };
    const present = new Set(CASES.map((c) => c.name));
    const missing = Object.entries(required).flatMap(([kind, cases]) => cases.map((c) => `${kind}/${c}`)).filter((n) => !present.has(n));
    expect(missing).toEqual([]);
  });

  test.each(CASES)('$name', async (c) => {
    const targets = addressesIn(join(c.dir, 'manifests')).flatMap((a) => ['--target', a]);
    const args = ['plan', join(c.name, 'manifests'), ...targets];
    // One after the other: plan takes the state's lock.
    const text = await moorInProcess(work, cloud, args);
    const json = await moorInProcess(work, cloud, [...args, '--output', 'json']);
    expect(text.code, text.stdout + text.stderr).toBe(c.exitCode);
    expect(json.code, json.stderr).toBe(c.exitCode);
    expect(json.stdout).not.toContain(work); // no temp path leaks into the plan
    await expect.soft(printed(text, cloud)).toMatchFileSnapshot(join(c.dir, 'plan.txt'));
    await expect.soft(normaliseJson(json.stdout, cloud)).toMatchFileSnapshot(join(c.dir, 'plan.json'));
  });
});

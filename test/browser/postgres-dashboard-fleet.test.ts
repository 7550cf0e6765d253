// The dashboard's Replicas panel in a real browser (Chromium through playwright-core), over two moor
// watch replicas sharing four stacks on one PostgreSQL state: the panel lists both replicas as live,
// marks the one serving the page, and shows the stacks each holds, as /api/status says; after a kill -9
// of the other replica, the panel shows the survivor holding all four.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeWithPostgres, ownDatabase } from '../state/postgres-env.js';
import { datasetManifest, startCloud, workdir, type Cloud } from '../e2e/harness.js';
import { waitFor, type WatchProcess, type WatchStatus } from '../e2e/watch-harness.js';
import { startWatchProcess } from '../e2e/watch-process.js';
import { launchBrowser } from './launch-browser.js';
import { screenshot } from './dashboard-page.js';

const STACKS = 4;

/** The Replicas panel's rows as the page shows them: replica id -> its cells' text. */
type PanelRows = Map<string, { state: string; held: string; self: boolean }>;

async function panelRows(page: Page): Promise<PanelRows> {
  const rows = page.locator('[data-testid="fleet"] tbody tr');
  const out: PanelRows = new Map();
  for (const row of await rows.all()) {
    const id = await row.getAttribute('data-replica');
    const cells = await row.locator('td').allTextContents();
    const heading = await row.locator('th').textContent();
    if (id) out.set(id, { state: cells[1]?.trim() ?? '', held: cells[3]?.trim() ?? '', self: (heading ?? '').includes('(this one)') });
  }
  return out;
}

describeWithPostgres('the dashboard of a fleet of replicas', () => {
  const run = randomBytes(3).toString('hex');
  const stacks = Array.from({ length: STACKS }, (_, i) => `p${run}-${i}`);
  const ids = [`pa-${run}`, `pb-${run}`];
  let cloud: Cloud;
  let browser: Browser;
  const replicas: WatchProcess[] = [];
  // The fleet is every replica of a database: other test files' replicas must not join this one.
  let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;

  beforeAll(async () => {
    const files: Record<string, string> = { 'moor.config.yaml': `stacks:\n${stacks.map((s, i) => `  ${s}: {paths: [s${i}]}`).join('\n')}\n` };
    stacks.forEach((_, i) => (files[`s${i}/dataset.yaml`] = datasetManifest('sales', { datasetName: `ds-${run}-${i}` })));
    const dir = workdir(files);
    [cloud, browser, database] = await Promise.all([startCloud(), launchBrowser(), ownDatabase('fleet_page')]);
    for (const id of ids) {
      replicas.push(await startWatchProcess(dir, cloud, ['--all-stacks', '--interval', '2s', '--replica-id', id], { MOOR_STATE: database.url }));
    }
  }, 240_000);

  afterAll(async () => {
    await (browser as Browser | undefined)?.close(); // unset if beforeAll failed
    for (const w of replicas) await w.terminate().catch(() => undefined);
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
    await database?.drop();
  });

  test('lists both replicas live with the stacks each holds, then the survivor holding all after a kill -9', async () => {
    const [first, second] = replicas;
    const statuses = async (): Promise<WatchStatus[]> => Promise.all(replicas.map((w) => w.status()));
    const shared = await waitFor(
      async () => {
        const s = await statuses();
        const held = s.flatMap((x) => x.holds);
        return held.length === STACKS && s.every((x) => x.holds.length === STACKS / 2) ? s : false;
      },
      60_000,
      () => `not shared 2/2: ${first.stderr()}\n${second.stderr()}`,
    );

    const page = await browser.newPage();
    await page.goto(`${first.url}/`);
    await page.locator('[data-testid="fleet"]').waitFor({ timeout: 30_000 });
    // The other replica's row is what the serving one saw at its last look at the fleet (every half second
    // here): a look taken while the other was still taking its share is caught up by the next one.
    const showsShare = (r: PanelRows): boolean =>
      shared.every((status, i) => {
        const held = r.get(ids[i])?.held ?? '';
        return held.startsWith(String(STACKS / 2)) && status.holds.every((stack) => stack !== null && held.includes(stack));
      });
    let seen: PanelRows = new Map();
    const rows = await waitFor(
      async () => {
        const r = (seen = await panelRows(page));
        return r.size === 2 && [...r.values()].every((x) => x.state === 'live') && showsShare(r) ? r : false;
      },
      30_000,
      () => `the panel never listed two live replicas holding ${STACKS / 2} stacks each: ${JSON.stringify([...seen])}`,
    );
    await screenshot(page, 'fleet-two-replicas');
    expect(rows.get(ids[0])!.self).toBe(true);
    expect(rows.get(ids[1])!.self).toBe(false);
    // Each row names the stacks its replica says it holds.
    shared.forEach((status, i) => {
      const held = rows.get(ids[i])!.held;
      expect(held.startsWith(String(STACKS / 2))).toBe(true);
      for (const stack of status.holds) expect(held).toContain(stack);
    });
    await expect(page.locator('[data-testid="fleet"]').textContent()).resolves.toContain(`2 live replicas share ${STACKS} stacks`);

    await second.kill();
    replicas.splice(1, 1);
    await waitFor(
      async () => (await first.status()).holds.length === STACKS,
      60_000,
      () => `the survivor never took all stacks: ${first.stderr()}`,
    );
    const after = await waitFor(
      async () => {
        const r = await panelRows(page);
        return r.get(ids[0])?.held.startsWith(String(STACKS)) && r.get(ids[1])?.state !== 'live' ? r : false;
      },
      60_000,
      () => 'the panel never showed the survivor holding all stacks',
    );
    for (const stack of stacks) expect(after.get(ids[0])!.held).toContain(stack);
    await screenshot(page, 'fleet-after-kill');
    await page.close();
  }, 240_000);
});

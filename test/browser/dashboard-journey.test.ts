// What a platform team met in the dashboard (issue 33): relative times that tick, cards that say
// "unknown" once the watch stops answering, a replace blocked by protect shown blocked in the row,
// the card and the detail in one vocabulary, graph and history opening on the failing stack, a
// resource's detail as a link that reopens it, counts in the singular, and labels clear of their boxes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { authManifest, groupManifest, moor, workdir, writeFile, type Cloud } from '../e2e/harness.js';
import { waitFor, type WatchRun } from '../e2e/watch-harness.js';
import { rowStatus, screenshot, SECRET, startWatchedDashboard, type WatchedDashboard } from './dashboard-page.js';

const LONG_GROUP = 'web-with-a-name-too-long-for-its-box';

/** dev: a group with a long name needing an auth context (2 resources, in sync); prod: one protected auth context whose id changes (a replace protect blocks). */
async function prepare(cloud: Cloud): Promise<string> {
  const protectedContext = (id: string) => authManifest('c52', { displayName: 'Prod', id }).replace('  name: c52\n', '  name: c52\n  protect: true\n');
  const dir = workdir({
    'moor.config.yaml': 'stacks:\n  dev: {paths: [dev]}\n  prod: {paths: [prod]}\n',
    'dev/secret.txt': SECRET,
    'dev/web.yaml': groupManifest(LONG_GROUP).replace(`  name: ${LONG_GROUP}\n`, `  name: ${LONG_GROUP}\n  dependsOn: [AuthContext/c51]\n`),
    'dev/ctx.yaml': authManifest('c51', { displayName: 'Dev' }),
    'prod/ctx.yaml': protectedContext('c52'),
  });
  for (const stack of ['dev', 'prod']) {
    const applied = await moor(dir, cloud, ['apply', '--stack', stack, '--auto-approve']);
    if (applied.code !== 0) throw new Error(`apply --stack ${stack}: ${applied.stderr}`);
  }
  writeFile(dir, 'prod/ctx.yaml', protectedContext('c59'));
  return dir;
}

describe('the dashboard, as a platform team read it', () => {
  let browser: Browser;
  let watch: WatchRun;
  let page: Page;
  let dashboard: WatchedDashboard | undefined;

  beforeAll(async () => {
    // One cycle per stack in the test's time: what the page shows changes only by the page itself.
    dashboard = await startWatchedDashboard({ prepare, watchArgs: ['--all-stacks', '--interval', '10m'] });
    ({ browser, watch } = dashboard);
    await waitFor(
      async () => (await watch.status()).stacks.every((s) => s.result !== null),
      60_000,
      () => `no first cycles: ${watch.stderr()}`,
    );
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(watch.url + '/');
    await page.locator('tr[data-address]').first().waitFor({ timeout: 30_000 });
  }, 240_000);

  afterAll(async () => {
    await dashboard?.stop();
  });

  it('shows a replace blocked by protect as blocked, in the row, the card and the detail, with the reason', async () => {
    expect(await rowStatus(page, 'prod', 'AuthContext/c52')).toBe('held');
    const row = page.locator('tr[data-stack="prod"][data-address="AuthContext/c52"]');
    expect(await row.locator('.badge').innerText()).toContain('blocked');
    expect(await row.innerText()).toContain('is protected (metadata.protect) and would be replaced');
    const card = page.locator('li.stack[data-stack="prod"]');
    expect(await card.locator('[data-health]').getAttribute('data-health')).toBe('failed');
    // The card counts in the rows' words, in the singular for one.
    expect(await card.locator('[data-testid="stack-counts"]').innerText()).toBe('1 resource, 1 blocked');
    expect(await card.innerText()).toContain('1 failure in a row');
    expect(await page.locator('li.stack[data-stack="dev"] [data-testid="stack-counts"]').innerText()).toBe('2 resources');
    await page.getByRole('button', { name: 'AuthContext/c52 in prod: show detail' }).click();
    const detail = page.locator('[data-testid="resource-detail"]');
    await detail.waitFor({ timeout: 30_000 });
    expect(await detail.locator('.badge').first().innerText()).toContain('blocked');
    expect(await detail.innerText()).toContain('is protected (metadata.protect) and would be replaced');
    await screenshot(page, 'journey-blocked');
  }, 60_000);

  it('puts the open resource in the address: the link reopens it in another tab, and closing it takes it out', async () => {
    await page.locator('#detail-heading', { hasText: 'AuthContext/c52' }).waitFor({ timeout: 30_000 });
    const link = page.url();
    expect(new URL(link).hash).toBe('#/resources?stack=prod&address=AuthContext%2Fc52');
    const other = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await other.goto(link);
      await other.locator('#detail-heading', { hasText: 'AuthContext/c52' }).waitFor({ timeout: 30_000 });
    } finally {
      await other.close();
    }
    await page.getByRole('button', { name: 'Close the detail' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/resources');
    // The address changes first and the page renders on its hashchange: wait for the detail to go, as a user sees it go.
    await expect.poll(() => page.locator('[data-testid="resource-detail"]').count()).toBe(0);
  }, 60_000);

  it('ticks relative times without a reload', async () => {
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    const when = page.locator('li.stack[data-stack="dev"] time');
    const first = await when.innerText();
    await expect.poll(() => when.innerText(), { timeout: 15_000 }).not.toBe(first);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  }, 30_000);

  it('opens Graph and History on the failing stack, though another comes first', async () => {
    const fresh = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await fresh.goto(`${watch.url}/#/graph`);
      await fresh.locator('[data-testid="graph"] g.node[data-address="AuthContext/c52"]').waitFor({ timeout: 30_000 });
      expect(await fresh.getByRole('combobox', { name: 'Stack' }).inputValue()).toBe('prod');
      await fresh.getByRole('link', { name: 'History' }).click();
      await fresh.locator('#history-heading').waitFor({ timeout: 30_000 });
      expect(await fresh.getByRole('combobox', { name: 'Stack' }).inputValue()).toBe('prod');
    } finally {
      await fresh.close();
    }
  }, 60_000);

  it('keeps every graph label inside its box with room to spare', async () => {
    await page.getByRole('link', { name: 'Graph' }).click();
    await page.getByRole('combobox', { name: 'Stack' }).selectOption('dev');
    await page.locator(`[data-testid="graph"] g.node[data-address="ContainerGroup/${LONG_GROUP}"]`).waitFor({ timeout: 30_000 });
    const gaps = await page.locator('[data-testid="graph"] g.node').evaluateAll((nodes) =>
      nodes.flatMap((g) => {
        const rect = g.querySelector('rect')!;
        const width = rect.width.baseVal.value;
        const height = rect.height.baseVal.value;
        return [...g.querySelectorAll('text')].map((t) => {
          const box = t.getBBox();
          return { text: t.textContent, left: box.x, right: width - (box.x + box.width), top: box.y, bottom: height - (box.y + box.height) };
        });
      }),
    );
    expect(gaps.length).toBe(4);
    for (const gap of gaps) {
      expect(Math.min(gap.left, gap.right), `${gap.text}: ${JSON.stringify(gap)}`).toBeGreaterThanOrEqual(8);
      expect(Math.min(gap.top, gap.bottom), `${gap.text}: ${JSON.stringify(gap)}`).toBeGreaterThanOrEqual(4);
    }
    await screenshot(page, 'journey-graph-dev');
  }, 60_000);

  it('says the stacks are unknown, not healthy, once the watch stops answering', async () => {
    await page.getByRole('link', { name: 'Resources' }).click();
    await page.locator('[data-testid="connection"]', { hasText: 'live' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('li.stack[data-stack="dev"] [data-health]').innerText()).toContain('healthy');
    await watch.terminate();
    await page.locator('[data-testid="stale"]').waitFor({ timeout: 30_000 });
    for (const stack of ['dev', 'prod']) {
      const card = page.locator(`li.stack[data-stack="${stack}"]`);
      expect(await card.getAttribute('data-stale')).toBe('true');
      expect(await card.locator('[data-health]').getAttribute('data-health')).toBe('unknown');
      expect(await card.locator('[data-health]').innerText()).toContain('unknown');
    }
    expect(await page.locator('li.stack[data-stack="dev"]').innerText()).toContain('last known: healthy');
    await screenshot(page, 'journey-stale');
  }, 60_000);
});

// The dashboard of moor watch in a real browser (Chromium through playwright-core): two stacks listed
// with their statuses, drift showing up live, the detail's diff as plan prints it with no secret
// anywhere, the dependency graph's edges, an accessibility scan, and (with MOOR_SCREENSHOTS) a screenshot of each view.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AUTH_PATH, cloudRequest, moor, writeFile, groupManifest, type Cloud } from '../e2e/harness.js';
import type { WatchRun } from '../e2e/watch-harness.js';
import {
  applyStacks,
  recordResponses,
  rowStatus,
  waitForRowStatus,
  screenshot,
  SECRET,
  startWatchedDashboard,
  twoStacks,
  type WatchedDashboard,
} from './dashboard-page.js';

const INTERVAL_S = 4;
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('the dashboard in a browser', () => {
  let cloud: Cloud;
  let browser: Browser;
  let watch: WatchRun;
  let dir: string;
  let page: Page;
  let bodies: string[];
  let dashboard: WatchedDashboard | undefined;

  beforeAll(async () => {
    dashboard = await startWatchedDashboard({
      prepare: async (c) => {
        const d = twoStacks();
        await applyStacks(d, c);
        return d;
      },
      watchArgs: ['--all-stacks', '--interval', `${INTERVAL_S}s`],
    });
    ({ cloud, browser, watch, dir } = dashboard);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    bodies = recordResponses(page);
    await page.goto(watch.url + '/');
  }, 240_000);

  afterAll(async () => {
    await dashboard?.stop();
  });

  it('lists both stacks with their health and every resource with its status', async () => {
    await page.locator('tr[data-address]').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('li.stack').evaluateAll((els) => els.map((e) => e.getAttribute('data-stack')))).toEqual(['dev', 'prod']);
    for (const [stack, address] of [
      ['dev', 'ContainerGroup/web-dev'],
      ['dev', 'AuthContext/c41'],
      ['prod', 'AuthContext/c42'],
      ['prod', 'AuthContext/c43'],
    ]) {
      expect(await rowStatus(page, stack, address), `${stack} ${address}`).toBe('in_sync');
    }
    // The status is a word as well as a colour.
    await expect.poll(() => page.locator('tr[data-address="AuthContext/c42"] .badge').innerText()).toContain('in sync');
    expect(await page.locator('[data-testid="row-count"]').innerText()).toBe('4 resources');
    await page.locator('[data-testid="connection"]', { hasText: 'live' }).waitFor();
    await screenshot(page, 'resources');
  }, 120_000);

  it('turns a row drifted without a reload within two intervals of an out-of-band change', async () => {
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    const patched = await cloudRequest(cloud, 'PATCH', AUTH_PATH('c42'), { displayName: 'changed by hand' });
    expect(patched.status).toBeLessThan(300);
    const changedAt = Date.now();
    await waitForRowStatus(page, 'prod', 'AuthContext/c42', 'drifted', 2 * INTERVAL_S * 1000 + 2_000, () => `no drift on the page: ${watch.stderr()}`);
    // Two intervals, and the page's own reload after the cycle's event (a cycle plans a few resources in well under a second).
    expect(Date.now() - changedAt).toBeLessThan(2 * INTERVAL_S * 1000 + 2_000);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await page.locator('li.stack[data-stack="prod"] [data-health]').getAttribute('data-health')).toBe('drifted');
  }, 60_000);

  it("shows a resource's diff exactly as plan prints it, and no secret anywhere in the page or its responses", async () => {
    await page.getByRole('button', { name: 'AuthContext/c42 in prod: show detail' }).click();
    const diff = page.locator('[data-testid="diff"]');
    await diff.waitFor({ timeout: 30_000 });
    const shown = (await diff.innerText()).trimEnd().split('\n');
    const planned = await moor(dir, cloud, ['plan', '--stack', 'prod']);
    expect(shown.length).toBeGreaterThan(1);
    const planLines = planned.stdout.split('\n');
    for (const line of shown) expect(planLines).toContain(line);
    expect(shown.join('\n')).toContain('/displayName: "changed by hand" → "Prod A"');
    await screenshot(page, 'detail-drifted');
    // A drifted resource offers its three answers as commands to copy.
    const answers = page.locator('[data-testid="drift-answers"]');
    expect(await answers.locator('[data-testid="answer-accept"]').innerText()).toBe('moor drift --stack prod --accept AuthContext/c42');
    expect(await answers.locator('[data-testid="answer-revert"]').innerText()).toBe('moor apply --stack prod --target AuthContext/c42');
    expect(await answers.locator('[data-testid="answer-ignore"]').innerText()).toBe('ignoreChanges: ["/displayName"]');

    // A manifest edit of the group with a secure value: its diff and outputs reach the page, its secret does not.
    writeFile(
      dir,
      'dev/web.yaml',
      groupManifest('web-dev', { image: 'nginx:1.28' }).replace('  name: web-dev\n', '  name: web-dev\n  dependsOn: [AuthContext/c41]\n'),
    );
    await waitForRowStatus(page, 'dev', 'ContainerGroup/web-dev', 'pending', 30_000, () => `edit not seen: ${watch.stderr()}`);
    await page.getByRole('button', { name: 'ContainerGroup/web-dev in dev: show detail' }).click();
    await page.locator('[data-testid="diff"]', { hasText: 'nginx:1.28' }).waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="outputs"]').waitFor();
    expect(await diff.innerText()).toMatch(/secureValue: \(sensitive/);
    await screenshot(page, 'detail-secure-value');
    expect(bodies.some((b) => b.includes('ContainerGroup/web-dev'))).toBe(true);
    expect(bodies.filter((b) => b.includes(SECRET))).toEqual([]);
    expect(await page.content()).not.toContain(SECRET);
  }, 120_000);

  it('draws the dependency graph with its edges and each status as a word', async () => {
    await page.getByRole('link', { name: 'Graph' }).click();
    await page.getByRole('combobox', { name: 'Stack' }).selectOption('prod');
    const edge = page.locator('[data-testid="graph"] path.edge[data-from="AuthContext/c43"][data-to="AuthContext/c42"]');
    await edge.waitFor({ state: 'attached', timeout: 30_000 });
    expect(await page.locator('[data-testid="graph"] g.node[data-address="AuthContext/c42"] .node-status').textContent()).toContain('drifted');
    await screenshot(page, 'graph-prod');
    await page.getByRole('combobox', { name: 'Stack' }).selectOption('dev');
    await page
      .locator('[data-testid="graph"] path.edge[data-from="ContainerGroup/web-dev"][data-to="AuthContext/c41"]')
      .waitFor({ state: 'attached', timeout: 30_000 });
    expect(await page.locator('[data-testid="graph"] path.edge').count()).toBe(1);
    await screenshot(page, 'graph-dev');
  }, 60_000);

  it('lists the history of runs and the request rates', async () => {
    await page.getByRole('link', { name: 'History' }).click();
    const history = page.locator('[data-testid="history"]');
    await history.waitFor({ timeout: 30_000 });
    expect(await history.innerText()).toContain('+ ContainerGroup/web-dev: done');
    await screenshot(page, 'history');
    await page.getByRole('link', { name: 'Rates' }).click();
    const graphRow = page.locator('[data-testid="rates"] tr[data-service="graph"] td').first();
    await graphRow.waitFor({ timeout: 30_000 });
    expect(Number(await graphRow.innerText())).toBeGreaterThan(0);
    await screenshot(page, 'rates');
  }, 60_000);

  it('is usable from the keyboard: search, Tab to a row, Enter opens its detail and moves the focus there', async () => {
    await page.getByRole('link', { name: 'Resources' }).click();
    const search = page.getByRole('searchbox');
    await search.focus();
    await page.keyboard.type('c43');
    await page.locator('[data-testid="row-count"]', { hasText: '1 of 4 resources' }).waitFor({ timeout: 30_000 });
    const target = 'AuthContext/c43 in prod: show detail';
    for (let i = 0; i < 12 && (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) !== target; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(target);
    await page.keyboard.press('Enter');
    await page.locator('#detail-heading', { hasText: 'AuthContext/c43' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('detail-heading');
  }, 60_000);

  it('has no serious or critical accessibility violation in any view (axe-core)', async () => {
    // axe runs in the page the tests above used, under the page's own CSP: DevTools' evaluate is not bound by
    // it, so neither a context that bypasses it nor a second page load is needed. The four views are changes of
    // the fragment (no reload), so axe is compiled once; each view is scanned once its own content is drawn.
    const drawn: Record<string, string> = {
      resources: '#detail-heading',
      graph: '[data-testid="graph"]',
      history: '[data-testid="history"]',
      rates: '[data-testid="rates"]',
    };
    const found: string[] = [];
    await page.goto(`${watch.url}/#/resources`);
    // Every row again (the keyboard test above searched for one).
    await page.getByRole('searchbox').fill('');
    await page.locator('[data-testid="row-count"]', { hasText: /^4 resources$/ }).waitFor({ timeout: 30_000 });
    await page.evaluate(axeSource);
    for (const view of ['resources', 'graph', 'history', 'rates']) {
      await page.goto(`${watch.url}/#/${view}`);
      await page.locator('main h2').first().waitFor({ timeout: 30_000 });
      if (view === 'resources') {
        // With a resource's detail open (its diff, facts and outputs are scanned too).
        await page.getByRole('button', { name: 'AuthContext/c42 in prod: show detail' }).click({ timeout: 30_000 });
        await page.locator('#detail-heading', { hasText: 'AuthContext/c42' }).waitFor({ timeout: 30_000 });
      }
      await page.locator(drawn[view]).waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => 'axe' in window), `${view}: the page was reloaded`).toBe(true);
      const violations = await page.evaluate(async () => {
        interface Axe {
          run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        }
        const axe = (window as unknown as { axe: Axe }).axe;
        // Only the violations are read: axe then details one node of the other result types instead of all.
        return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
        }));
      });
      found.push(
        ...violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${view}: ${v.id} (${v.impact}) at ${v.targets.join(', ')}`),
      );
    }
    expect(found).toEqual([]);
  }, 120_000);
});

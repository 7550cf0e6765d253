// The dashboard behind --listen-token: the token travels in the URL's fragment (never sent to the
// server) and then as a bearer header, the live stream included; without it the page asks for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { authManifest, moor, workdir } from '../e2e/harness.js';
import type { WatchRun } from '../e2e/watch-harness.js';
import { waitForRowStatus, screenshot, startWatchedDashboard, type WatchedDashboard } from './dashboard-page.js';

const TOKEN = 'dashboard-token-5k2m';

describe('the dashboard with a listen token', () => {
  let browser: Browser;
  let watch: WatchRun;
  let dashboard: WatchedDashboard | undefined;

  beforeAll(async () => {
    dashboard = await startWatchedDashboard({
      prepare: async (cloud) => {
        const dir = workdir({ 'm/c44.yaml': authManifest('c44', { displayName: 'Forty-four' }) });
        expect((await moor(dir, cloud, ['apply', 'm', '--auto-approve'])).code).toBe(0);
        return dir;
      },
      watchArgs: ['m', '--interval', '3s', '--listen-token', TOKEN],
      token: TOKEN,
    });
    ({ browser, watch } = dashboard);
  }, 240_000);

  afterAll(async () => {
    await dashboard?.stop();
  });

  it('works with the token in the fragment, sends it as a bearer header, and keeps it out of the address bar', async () => {
    const page = await browser.newPage();
    const sent: { path: string; authorization?: string }[] = [];
    page.on('request', (req) => sent.push({ path: new URL(req.url()).pathname + new URL(req.url()).search, authorization: req.headers().authorization }));
    await page.goto(`${watch.url}/#token=${TOKEN}`);
    await waitForRowStatus(page, '', 'AuthContext/c44', 'in_sync', 30_000, () => 'no row');
    await page.locator('[data-testid="connection"]', { hasText: 'live' }).waitFor({ timeout: 30_000 });
    expect(page.url()).not.toContain(TOKEN);
    const data = sent.filter((r) => r.path.startsWith('/api/'));
    expect(data.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/status', '/api/events']));
    expect(data.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    // The token never travels in a URL.
    expect(sent.filter((r) => r.path.includes(TOKEN))).toEqual([]);
    await page.close();
  }, 120_000);

  it('asks for the token when opened without it, and its data stays behind the token', async () => {
    expect((await watch.get('/api/status')).status).toBe(401);
    expect((await watch.get('/api/dashboard/rates')).status).toBe(401);
    expect((await watch.get('/api/events')).status).toBe(401);
    const page = await browser.newPage();
    await page.goto(`${watch.url}/`);
    const field = page.getByLabel('Token');
    await field.waitFor({ timeout: 30_000 });
    await screenshot(page, 'token-form');
    await field.fill(TOKEN);
    await page.keyboard.press('Enter');
    await waitForRowStatus(page, '', 'AuthContext/c44', 'in_sync', 30_000, () => 'no row after the token was given');
    await page.close();
  }, 120_000);
});

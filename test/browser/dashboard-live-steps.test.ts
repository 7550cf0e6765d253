// The dashboard follows a --self-heal apply as it happens: a row is "in progress" while its step runs
// (the engine's step events, live) and in sync once the cycle that applied it ends, without a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ARM_PATH, cloudRequest, groupManifest, startMoor, workdir, writeFile, type Cloud } from '../e2e/harness.js';
import { waitFor, type WatchRun } from '../e2e/watch-harness.js';
import { testClock } from '../support/test-clock.js';
import { waitForRowStatus, screenshot, SECRET, startWatchedDashboard, type WatchedDashboard } from './dashboard-page.js';

const HOUR_MS = 3_600_000;
const clock = testClock();

/** Once the group's operation runs (its provisioning state is not terminal), ends it by moving the cloud's clock on an hour. */
async function endProvisioning(cloud: Cloud, name: string): Promise<void> {
  await waitFor(
    async () => ['Pending', 'Creating', 'Updating'].includes((await cloudRequest(cloud, 'GET', ARM_PATH(name))).body?.properties?.provisioningState as string),
    30_000,
    () => `${name} never provisioning`,
  );
  clock.advance(HOUR_MS);
}

describe('the dashboard during a --self-heal apply', () => {
  let browser: Browser;
  let watch: WatchRun;
  let dir: string;
  let cloud: Cloud;
  let dashboard: WatchedDashboard | undefined;

  beforeAll(async () => {
    // A group provisions for an hour of the cloud's test clock: the step stays in flight until the test ends it.
    dashboard = await startWatchedDashboard({
      cloudEnv: { MOOR_PROVISIONING_MS: String(HOUR_MS) },
      clock,
      prepare: async (c) => {
        const d = workdir({ 'm/web.yaml': groupManifest('live-web'), 'm/secret.txt': SECRET });
        const applied = startMoor(d, c, ['apply', 'm', '--auto-approve']);
        await endProvisioning(c, 'live-web');
        expect((await applied).code).toBe(0);
        return d;
      },
      watchArgs: ['m', '--interval', '30s', '--self-heal'],
    });
    ({ browser, watch, dir, cloud } = dashboard);
  }, 240_000);

  afterAll(async () => {
    await dashboard?.stop();
  });

  it('shows the row in progress while its update runs, then in sync', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(watch.url + '/');
    await waitForRowStatus(page, '', 'ContainerGroup/live-web', 'in_sync', 30_000, () => 'no row');
    await page.locator('[data-testid="connection"]', { hasText: 'live' }).waitFor({ timeout: 30_000 });
    // The edit starts a cycle at once (the manifest watcher), not after the 30 s interval.
    writeFile(dir, 'm/web.yaml', groupManifest('live-web', { image: 'nginx:1.28' }));
    await waitForRowStatus(page, '', 'ContainerGroup/live-web', 'in_progress', 30_000, () => `never in progress: ${watch.stderr()}`);
    await screenshot(page, 'self-heal-in-progress');
    await endProvisioning(cloud, 'live-web');
    await waitForRowStatus(page, '', 'ContainerGroup/live-web', 'in_sync', 60_000, () => `never in sync again: ${watch.stderr()}`);
    // The row turns in sync with the step's event; the cycle logs its repair when the cycle ends, a moment later.
    await waitFor(
      async () => watch.stderr().includes('repaired: ContainerGroup/live-web'),
      30_000,
      () => `never logged the repair: ${watch.stderr()}`,
    );
    await page.close();
  }, 180_000);
});

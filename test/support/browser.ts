// Headless Chromium (Debian's package, driven by playwright-core) for tests of what a person
// sees. CI installs it (.ci/run); elsewhere a missing browser skips those tests with a notice.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM_PATH);
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../.tmp');

if (!chromiumAvailable) {
  if (process.env.CI) throw new Error(`${CHROMIUM_PATH} is missing; .ci/run installs it (apt-get install chromium)`);
  console.warn(`browser tests skipped: no ${CHROMIUM_PATH} (apt-get install -y chromium)`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--headless'] });
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, name);
}

/**
 * Blocks every request not served by `baseUrl` (or inline data/blob URLs) and records it: on a
 * machine without internet such a request would fail, so a page must not need any.
 */
export async function blockOffOrigin(page: Page, baseUrl: string): Promise<string[]> {
  const offOrigin: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(baseUrl) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    offOrigin.push(url);
    return route.abort();
  });
  return offOrigin;
}

/** Kept for a person to look at under scratch/ (ignored by git), the whole page unless told. */
export async function keepScreenshot(page: Page, name: string, fullPage = true): Promise<void> {
  const file = path.resolve(import.meta.dirname, '../../scratch', name);
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage });
}

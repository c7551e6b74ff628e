// `/` in a real browser, at a desk's width and a phone's: the doors are links a person can reach,
// nothing runs off the screen, and screenshots are kept in test/.tmp/home-*.png to look at.
import { describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';
import { blockOffOrigin, chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';

describe.skipIf(!chromiumAvailable)('GET / in a browser', () => {
  const served = useListeningApp();

  it('shows sign-in, the API reference, the OpenAPI document and GraphiQL within the screen', async () => {
    const browser = await launchChromium();
    try {
      for (const width of [1366, 390]) {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        const offOrigin = await blockOffOrigin(page, served.baseUrl);
        const response = await page.goto(`${served.baseUrl}/`);
        expect(response?.status()).toBe(200);
        await page.screenshot({ path: screenshotPath(`home-${width}.png`), fullPage: true });
        await expect(page.getByRole('button', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
        for (const name of ['API reference', 'OpenAPI document', 'GraphiQL'])
          expect(await page.getByRole('link', { name }).getAttribute('href')).toMatch(/^\//);
        const outside = await page.evaluate(() =>
          [...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > innerWidth + 0.5)
            .map((element) => element.outerHTML.slice(0, 80)),
        );
        expect(outside, `width ${width}`).toEqual([]);
        expect(offOrigin).toEqual([]);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(/\/app\/login\??$/);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});

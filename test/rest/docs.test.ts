// The API reference page in a real browser: it renders from local assets only and shows
// nothing that needs a third party (no "Ask AI", no Deploy/Share toolbar). A screenshot is
// kept in test/.tmp/api-docs.png for a person to look at.
import { describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';
import { blockOffOrigin, chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';

describe.skipIf(!chromiumAvailable)('/api/v1/docs', () => {
  const served = useListeningApp();

  it('renders offline, without third-party features', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const offOrigin = await blockOffOrigin(page, served.baseUrl);
      const messages: string[] = [];
      page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
      await page.goto(`${served.baseUrl}/api/v1/docs`, { waitUntil: 'load' });
      await page.waitForFunction(() => document.body.textContent?.includes('List clients'), undefined, {
        timeout: 30_000,
      });
      await page.waitForTimeout(1_000);
      await page.screenshot({ path: screenshotPath('api-docs.png') });
      const text = (await page.textContent('body')) ?? '';
      // Scalar renders sections lazily; the navigation names every group.
      for (const part of ['List clients', 'Reports', 'AI visibility', 'Authentication']) expect(text).toContain(part);
      for (const foreign of ['Ask AI', 'Deploy', 'Developer Tools', 'Share']) expect(text).not.toContain(foreign);
      expect(offOrigin).toEqual([]);
      // The server shown is this one, not a fixed localhost:4000.
      expect(text).not.toContain('localhost:4000');
      // No deprecated option, and no "Client libraries" box (it offered only an empty Shell/Curl tab).
      expect(messages.filter((message) => /deprecated/i.test(message))).toEqual([]);
      expect(text).not.toMatch(/Client Libraries/i);
      // The document is valid as Scalar reads it (OpenAPI 3.1 with JSON Schema 2020-12): it logs none.
      expect(messages.filter((message) => /validation/i.test(message))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});

// GraphiQL in a real browser: it renders from local assets (no CDN), and a query run with the
// caller's API key in its Headers tab returns the workspace's data. A screenshot is kept in
// test/.tmp/graphiql.png for a person to look at.
import { describe, expect, it } from 'vitest';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { blockOffOrigin, chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';

describe.skipIf(!chromiumAvailable)('GraphiQL', () => {
  const served = useListeningApp();

  it('renders offline and runs a query with the caller\'s key', async () => {
    const { workspace, key } = await createKeyedWorkspace(served.t.database);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const offOrigin = await blockOffOrigin(page, served.baseUrl);
      // What a person does in the Headers tab, persisted the way GraphiQL persists it.
      await page.addInitScript((secret) => {
        localStorage.setItem('graphiql:headers', JSON.stringify({ Authorization: `Bearer ${secret}` }));
        localStorage.setItem('graphiql:shouldPersistHeaders', 'true');
      }, key.secret);
      await page.goto(`${served.baseUrl}/graphql`, { waitUntil: 'load' });
      await page.waitForSelector('.graphiql-container .monaco-editor', { timeout: 30_000 });
      await page.click('.graphiql-execute-button');
      await page.waitForFunction((slug) => document.querySelector('.graphiql-response')?.textContent?.includes(slug), workspace.slug, { timeout: 30_000 });
      await page.screenshot({ path: screenshotPath('graphiql.png') });
      expect(await page.textContent('body')).not.toContain('Loading');
      expect(offOrigin).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});

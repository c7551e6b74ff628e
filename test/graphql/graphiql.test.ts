// GraphiQL in a real browser: it renders from local assets (no CDN), opens clean without a key
// (no request on open, an empty result pane, a Docs pane that knows the schema), and a query run
// with the caller's API key in its Headers tab returns the workspace's data. Screenshots are kept
// in test/.tmp/graphiql*.png for a person to look at.
import { describe, expect, it } from 'vitest';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { blockOffOrigin, chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';

describe.skipIf(!chromiumAvailable)('GraphiQL', () => {
  const served = useListeningApp();

  it('opens without a key: nothing sent, no error, the Docs pane shows the schema', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const offOrigin = await blockOffOrigin(page, served.baseUrl);
      const graphqlCalls: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/graphql')
          graphqlCalls.push(request.postData() ?? '');
      });
      await page.goto(`${served.baseUrl}/graphql`, { waitUntil: 'load' });
      await page.waitForSelector('.graphiql-container .monaco-editor', { timeout: 30_000 });
      await page.screenshot({ path: screenshotPath('graphiql-open.png') });
      await page.click('[aria-label="Show Documentation Explorer"]');
      await page.waitForSelector('.graphiql-doc-explorer-root-type', { timeout: 30_000 });
      await page.screenshot({ path: screenshotPath('graphiql-no-key.png') });
      expect(await page.textContent('.graphiql-doc-explorer')).toContain('Query');
      expect(await page.textContent('body')).not.toContain('Error fetching schema');
      expect((await page.textContent('.graphiql-response'))?.trim() ?? '').toBe('');
      // Monaco renders spaces as no-break spaces.
      expect((await page.textContent('.graphiql-query-editor'))?.replace(/\s+/g, ' ')).toContain(
        'Paste your API key in the Headers tab',
      );
      expect(graphqlCalls).toEqual([]);
      expect(offOrigin).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);

  it("renders offline and runs a query with the caller's key", async () => {
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
      await page.waitForFunction(
        (slug) => document.querySelector('.graphiql-response')?.textContent?.includes(slug),
        workspace.slug,
        { timeout: 30_000 },
      );
      await page.screenshot({ path: screenshotPath('graphiql.png') });
      expect(await page.textContent('body')).not.toContain('Loading');
      expect(offOrigin).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});

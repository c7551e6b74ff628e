// The settings page in a real browser (Debian's Chromium): sign in, create a key, see its secret
// once, revoke it. Screenshots for a person to look at: test/.tmp/settings-created.png (the
// secret masked) and test/.tmp/settings-revoked.png.
import { describe, expect, it } from 'vitest';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { blockOffOrigin, chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';
import { PASSWORD, personWithPassword } from '../support/web.js';

describe.skipIf(!chromiumAvailable)('the settings page in a browser', () => {
  const served = useListeningApp();

  it('signs in, creates a key whose secret is shown once and works, and revokes it', async () => {
    const { ownerEmail } = await createKeyedWorkspace(served.t.database);
    await personWithPassword(served.t.database, { email: ownerEmail });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const offOrigin = await blockOffOrigin(page, served.baseUrl);
      await page.goto(`${served.baseUrl}/app/settings`);
      expect(new URL(page.url()).pathname).toBe('/app/login');
      await page.screenshot({ path: screenshotPath('login.png') });
      await page.fill('input[name=email] >> nth=0', ownerEmail);
      await page.fill('input[name=password]', PASSWORD);
      await page.click('button:has-text("Sign in")');
      await page.waitForURL(`${served.baseUrl}/app/settings`);

      await page.fill('#api-keys input[name=name]', 'Browser key');
      await page.click('#api-keys button:has-text("Create key")');
      const secret = (await page.textContent('[data-testid=secret]'))!.trim();
      expect(secret).toMatch(/^sgb_live_[A-Za-z0-9]+\.[A-Za-z0-9_-]+$/);
      await page.screenshot({ path: screenshotPath('settings-created.png'), fullPage: true, mask: [page.locator('[data-testid=secret]')] });
      expect((await fetch(`${served.baseUrl}/api/v1/clients`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);

      // Shown once: the page, loaded again, has no trace of it.
      await page.goto(`${served.baseUrl}/app/settings`);
      expect(await page.content()).not.toContain(secret);
      const row = page.locator('#api-keys tr', { hasText: 'Browser key' });
      await row.locator('button:has-text("Revoke")').click();
      await page.waitForSelector('text=revoked; it stops working at once');
      expect(await page.locator('#api-keys tr', { hasText: 'Browser key' }).locator('.badge').textContent()).toBe('revoked');
      await page.screenshot({ path: screenshotPath('settings-revoked.png'), fullPage: true });
      expect((await fetch(`${served.baseUrl}/api/v1/clients`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
      expect(offOrigin).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});

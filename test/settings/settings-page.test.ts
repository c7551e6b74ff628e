// The settings page in a real browser (Debian's Chromium): sign in, create a key, see its secret
// once, revoke it. Screenshots for a person to look at: test/.tmp/settings-created.png (the
// secret masked) and test/.tmp/settings-revoked.png.
import { describe, expect, it } from 'vitest';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { blockOffOrigin, chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';
import { PASSWORD, personWithPassword } from '../support/web.js';
import { recordFailedAttempt } from './attempts.js';

describe.skipIf(!chromiumAvailable)('the settings page in a browser', () => {
  const served = useListeningApp();

  it('signs in, creates a key whose secret is shown once and works, and revokes it', async () => {
    const { ownerEmail } = await createKeyedWorkspace(served.t.database, { plan: 'pro' });
    await personWithPassword(served.t.database, { email: ownerEmail });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const offOrigin = await blockOffOrigin(page, served.baseUrl);
      const cspViolations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
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
      await page.screenshot({
        path: screenshotPath('settings-created.png'),
        fullPage: true,
        mask: [page.locator('[data-testid=secret]')],
      });
      expect(
        (await fetch(`${served.baseUrl}/api/v1/clients`, { headers: { authorization: `Bearer ${secret}` } })).status,
      ).toBe(200);

      // Shown once: the page, loaded again, has no trace of it.
      await page.goto(`${served.baseUrl}/app/settings`);
      expect(await page.content()).not.toContain(secret);
      const row = page.locator('#api-keys tr', { hasText: 'Browser key' });
      await row.locator('button:has-text("Revoke")').click();
      await page.waitForSelector('text=revoked; it stops working at once');
      expect(await page.locator('#api-keys tr', { hasText: 'Browser key' }).locator('.badge').textContent()).toBe(
        'revoked',
      );
      await page.screenshot({ path: screenshotPath('settings-revoked.png'), fullPage: true });
      expect(
        (await fetch(`${served.baseUrl}/api/v1/clients`, { headers: { authorization: `Bearer ${secret}` } })).status,
      ).toBe(401);

      // Forms post with Origin: null under Referrer-Policy: no-referrer; Sec-Fetch-Site admits them.
      await page.click('#sso button:has-text("Require SSO")');
      await page.waitForSelector('text=Single sign-on is required');
      await page.fill('#account input[name=currentPassword]', PASSWORD);
      await page.fill('#account input[name=password]', 'a brand new password 42');
      await page.click('#account button:has-text("Change password")');
      await page.waitForURL(`${served.baseUrl}/app/settings`);
      await page.screenshot({ path: screenshotPath('settings-security.png'), fullPage: true });
      expect(
        (
          await fetch(`${served.baseUrl}/app/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: ownerEmail, password: 'a brand new password 42' }),
          })
        ).status,
      ).toBe(200);
      expect(offOrigin).toEqual([]);
      expect(cspViolations).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);

  it(
    'fits a 390 px phone with "Sign out" in view, and a form that fails keeps what was typed (never a ' + 'secret)',
    async () => {
      const { ownerEmail } = await createKeyedWorkspace(served.t.database, { plan: 'pro' });
      await personWithPassword(served.t.database, { email: ownerEmail });
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
        await page.goto(`${served.baseUrl}/app/login`);
        await page.fill('input[name=email] >> nth=0', ownerEmail);
        await page.fill('input[name=password]', PASSWORD);
        await page.click('button:has-text("Sign in")');
        await page.waitForURL(`${served.baseUrl}/app/settings`);
        // A key, so the widest table (eight columns) has a row.
        await page.fill('#api-keys input[name=name]', 'Phone key');
        await page.click('#api-keys button:has-text("Create key")');
        await page.waitForSelector('[data-testid=secret]');
        await page.screenshot({
          path: screenshotPath('settings-390.png'),
          fullPage: true,
          mask: [page.locator('[data-testid=secret]')],
        });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        const signOut = (await page.locator('header button:has-text("Sign out")').boundingBox())!;
        expect(signOut.x).toBeGreaterThanOrEqual(0);
        expect(signOut.x + signOut.width).toBeLessThanOrEqual(390);

        // Rejected (an http URL); the description and the event types chosen stay as typed.
        await page.fill('#webhooks input[name=url]', 'http://hooks.example.com/signalboard');
        await page.fill('#webhooks input[name=description]', 'Nightly warehouse sync');
        await page.uncheck('#webhooks input[name=eventTypes] >> nth=0');
        await page.click('#webhooks button:has-text("Add endpoint")');
        await page.waitForSelector('.notice.error');
        expect(await page.inputValue('#webhooks input[name=url]')).toBe('http://hooks.example.com/signalboard');
        expect(await page.inputValue('#webhooks input[name=description]')).toBe('Nightly warehouse sync');
        expect(await page.isChecked('#webhooks input[name=eventTypes] >> nth=0')).toBe(false);
        expect(await page.isChecked('#webhooks input[name=eventTypes] >> nth=1')).toBe(true);

        // Rejected (an http issuer): the client id comes back, the client secret does not.
        await page.fill('#sso input[name=issuer]', 'http://idp.example.com');
        await page.fill('#sso input[name=clientId]', 'signalboard-web');
        await page.fill('#sso input[name=clientSecret]', 'typed-client-secret-42');
        await page.click('#sso button:has-text("Save provider")');
        await page.waitForSelector('.notice.error');
        expect(await page.inputValue('#sso input[name=issuer]')).toBe('http://idp.example.com');
        expect(await page.inputValue('#sso input[name=clientId]')).toBe('signalboard-web');
        expect(await page.inputValue('#sso input[name=clientSecret]')).toBe('');
        expect(await page.content()).not.toContain('typed-client-secret-42');
        // The webhook form, not the one that failed now, is empty again.
        expect(await page.inputValue('#webhooks input[name=description]')).toBe('');
        await page.screenshot({ path: screenshotPath('settings-390-error.png'), fullPage: false });
        await page.setViewportSize({ width: 1366, height: 900 });
        await page.screenshot({ path: screenshotPath('settings-1366-error.png'), fullPage: true });
      } finally {
        await browser.close();
      }
    },
    90_000,
  );

  it(
    'the MCP consent page shows where the app sends the person, and Allow reaches the app with a code ' +
      "under the page's CSP",
    async () => {
      const { ownerEmail } = await createKeyedWorkspace(served.t.database, { plan: 'pro' });
      await personWithPassword(served.t.database, { email: ownerEmail });
      const registered = await (
        await fetch(`${served.baseUrl}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            client_name: 'Claude',
            redirect_uris: ['http://127.0.0.1:1/callback'],
            token_endpoint_auth_method: 'none',
          }),
        })
      ).json();
      const authorize = new URL(`${served.baseUrl}/oauth/authorize`);
      for (const [key, value] of Object.entries({
        client_id: registered.client_id,
        response_type: 'code',
        redirect_uri: 'http://127.0.0.1:1/callback',
        scope: 'mcp offline_access',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }))
        authorize.searchParams.set(key, value);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
        let reachedApp: string | null = null;
        await page.route('http://127.0.0.1:1/**', (route) => {
          reachedApp = route.request().url();
          return route.fulfill({ status: 200, body: 'app' });
        });
        await page.goto(authorize.href);
        await page.fill('input[name=email] >> nth=0', ownerEmail);
        await page.fill('input[name=password]', PASSWORD);
        await page.click('button:has-text("Sign in")');
        await page.waitForSelector('text=Not verified by Signalboard');
        await page.screenshot({ path: screenshotPath('mcp-consent.png'), fullPage: true });
        await page.click('button:has-text("Allow")');
        await page.waitForURL(/^http:\/\/127\.0\.0\.1:1\/callback\?code=/);
        expect(reachedApp).toMatch(/^http:\/\/127\.0\.0\.1:1\/callback\?code=/);
      } finally {
        await browser.close();
      }
    },
    90_000,
  );

  it(
    "a member's page is their account with a line saying who manages the rest; an owner's Attempts link " +
      'opens a readable list',
    async () => {
      const { ownerEmail, workspace } = await createKeyedWorkspace(served.t.database, { plan: 'pro' });
      await personWithPassword(served.t.database, { email: ownerEmail });
      const memberEmail = `member-${workspace.slug}@example.test`;
      await personWithPassword(served.t.database, { email: memberEmail, workspaceId: workspace.id, role: 'member' });
      const browser = await launchChromium();
      try {
        const signInAs = async (email: string) => {
          const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
          await page.goto(`${served.baseUrl}/app/login`);
          await page.fill('input[name=email] >> nth=0', email);
          await page.fill('input[name=password]', PASSWORD);
          await page.click('button:has-text("Sign in")');
          await page.waitForURL(`${served.baseUrl}/app/settings`);
          return page;
        };
        const owner = await signInAs(ownerEmail);
        await owner.fill('#webhooks input[name=url]', 'https://hooks.example.com/signalboard');
        await owner.click('#webhooks button:has-text("Add endpoint")');
        await owner.waitForSelector('[data-testid=secret]');
        const [endpoint] = await served.t.database.prisma.webhookEndpoint.findMany({
          where: { workspaceId: workspace.id },
        });
        await recordFailedAttempt(served.t.database.prisma, workspace.id, endpoint!.id);
        await owner.goto(`${served.baseUrl}/app/settings`);
        await owner.screenshot({ path: screenshotPath('settings-owner.png'), fullPage: true });
        await owner.click('#webhooks a:has-text("Attempts")');
        await owner.waitForSelector('h1:has-text("Delivery attempts")');
        expect(await owner.textContent('table')).toContain('the receiver was down');
        await owner.screenshot({ path: screenshotPath('settings-attempts.png'), fullPage: true });

        const member = await signInAs(memberEmail);
        expect(await member.locator('section').evaluateAll((all) => all.map((one) => one.id))).toEqual(['account']);
        expect(await member.textContent('[role=note]')).toContain('its owners and admins manage its API keys');
        await member.screenshot({ path: screenshotPath('settings-member.png'), fullPage: true });
      } finally {
        await browser.close();
      }
    },
    90_000,
  );
});

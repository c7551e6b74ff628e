// Every page a person opens in the web app (sign-in and password reset, settings, an assistant's
// consent, the three views), at 390 px (a phone) and 1366 px: nothing reaches past
// the screen but a table in a box that scrolls sideways and says so, with its caption whole, and
// the header's Views menu open within the screen. GraphiQL and the API reference are left out:
// they are third-party apps (GraphiQL, Scalar) with their own layouts, not pages we draw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { seededViewsWorkspace } from '../support/views.js';
import { useListeningApp } from '../support/listen.js';
import { chromiumAvailable, keepScreenshot, launchChromium } from '../support/browser.js';
import { call } from '../support/web.js';
import { elementsOutside } from '../support/viewport.js';

const served = useListeningApp();
let browser: Browser;
let cookie: string;
let pages: { name: string; path: string; signedIn: boolean; ready?: string }[] = [];

beforeAll(async () => {
  if (!chromiumAvailable) return;
  const seeded = await seededViewsWorkspace(served);
  cookie = seeded.cookie;
  // Each settings table with a row, and audit entries to go with them.
  const auth = { cookie, csrf: seeded.csrf };
  await call(served.t.app, auth, 'POST', '/app/settings/api-keys', {
    name: 'Warehouse sync for the reporting team',
    scopes: ['clients:read', 'reports:read'],
  });
  await call(served.t.app, auth, 'POST', '/app/settings/webhooks', {
    url: 'https://hooks.example.com/signalboard/a-rather-long-path/for-the-endpoint',
    eventTypes: ['signal.created'],
    description: 'ops',
  });
  await call(served.t.app, auth, 'POST', '/app/settings/sso/domains', { domain: 'northwind-outdoor-example.com' });
  // The consent page an assistant's connection opens (OAuth), as a signed-in person sees it.
  const client = await (
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
  const authorize = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:1/callback',
    scope: 'mcp offline_access',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  pages = [
    {
      name: 'consent',
      path: `/oauth/authorize?${authorize}`,
      signedIn: true,
      ready: 'text=Not verified by Signalboard',
    },
    { name: 'sign-in', path: '/app/login', signedIn: false },
    { name: 'forgot-password', path: '/app/forgot-password', signedIn: false },
    { name: 'reset-password', path: '/app/reset-password?token=x', signedIn: false },
    { name: 'settings', path: '/app/settings', signedIn: true },
    { name: 'report', path: `/app/reports/${seeded.reportId}`, signedIn: true, ready: '.kpi' },
    {
      name: 'visibility',
      path: `/app/ai-visibility/${seeded.projectId}`,
      signedIn: true,
      ready: 'text=What to do next',
    },
    {
      name: 'answers',
      path: `/app/ai-visibility/${seeded.projectId}/answers`,
      signedIn: true,
      ready: 'article.answer',
    },
  ];
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!chromiumAvailable)('every page at phone width', () => {
  for (const width of [390, 1366]) {
    it(`${width} px: nothing past the screen but cued sideways scrollers, the Views menu open within it`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
      const outside: Record<string, unknown> = {};
      for (const entry of pages) {
        await context.clearCookies();
        if (entry.signedIn) await context.addCookies([{ name, value, url: served.baseUrl }]);
        const page = await context.newPage();
        await page.goto(`${served.baseUrl}${entry.path}`);
        if (entry.ready) await page.locator(entry.ready).first().waitFor({ timeout: 20_000 });
        await keepScreenshot(page, `phone-width/${entry.name}-${width}.png`);
        const found = await elementsOutside(page);
        if (found.length) outside[entry.name] = found;
        // Every disclosure open (the Views menu, each chart's table): what they hold counts too.
        if (await page.locator('details').count()) {
          await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
          await keepScreenshot(page, `phone-width/${entry.name}-open-${width}.png`, false);
          const opened = await elementsOutside(page);
          if (opened.length) outside[`${entry.name} (details open)`] = opened;
        }
        await page.close();
      }
      await context.close();
      expect(outside).toEqual({});
    }, 120_000);
  }
});

// The views as the web app's pages, in a real browser: a signed-in person reaches them from the
// settings header, each page's script (the MCP App's own) reads /graphql with its trusted
// operation and shows v1's numbers, under a CSP without inline script, at 390 px too.
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createKeyedWorkspace } from '../support/app.js';
import { en, kpiTexts, seededViewsWorkspace, v1Get } from '../support/views.js';
import { useListeningApp } from '../support/listen.js';
import { chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';
import { seedWorkspace } from '../../src/demo/seed.js';

const served = useListeningApp();
const KEPT = path.resolve(import.meta.dirname, '../../scratch/views');
let browser: Browser;
let apiKey: string;
let cookie: string;
let reportId: string;
let projectId: string;
let otherReportId: string;

const v1 = (route: string, key = apiKey) => v1Get(served.baseUrl, route, key);

/** A page of the signed-in person, recording console errors, page errors and CSP violations. */
async function signedInPage(width = 1100): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  await context.addCookies([{ name, value, url: served.baseUrl }]);
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
    ),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  return { context, page, problems };
}

async function keep(page: Page, name: string) {
  mkdirSync(KEPT, { recursive: true });
  for (const [file, fullPage] of [
    [name, true],
    [name.replace('.png', '-top.png'), false],
  ] as const) {
    await page.screenshot({ path: screenshotPath(file), fullPage });
    copyFileSync(screenshotPath(file), path.join(KEPT, file));
  }
}

beforeAll(async () => {
  if (!chromiumAvailable) return;
  ({ apiKey, cookie, reportId, projectId } = await seededViewsWorkspace(served));
  const other = await createKeyedWorkspace(served.t.database);
  await seedWorkspace(served.t.database.prisma, served.t.database.pool, {
    workspaceId: other.workspace.id,
    days: 3,
    clients: 1,
  });
  otherReportId = (await v1('/reports', other.key.secret)).data[0].id;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('the view pages', () => {
  it('send a visitor without a session to sign in (and back after it), and serve no page for a POST', async () => {
    const anonymous = await fetch(`${served.baseUrl}/app/reports/rep_x`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/app/login?next=%2Fapp%2Freports%2Frep_x');
    const api = await fetch(`${served.baseUrl}/app/ai-visibility/prj_x`, { headers: { accept: 'application/json' } });
    expect(api.status).toBe(401);
  });

  it.skipIf(!chromiumAvailable)(
    "report: reached from the settings header, v1's KPIs on screen, no inline script allowed and none needed",
    async () => {
      const { context, page, problems } = await signedInPage();
      await page.goto(`${served.baseUrl}/app/settings`);
      await page.locator('.views-menu summary').click();
      const [response] = await Promise.all([
        page.waitForResponse((answer) => answer.url().endsWith(`/app/reports/${reportId}`)),
        page.locator(`.views-menu a[href="/app/reports/${reportId}"]`).click(),
      ]);
      const csp = response.headers()['content-security-policy']!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      const data = (await v1(`/reports/${reportId}/data`)).data;
      const { widgets } = (await v1(`/reports/${reportId}`)).data.definition;
      await expect
        .poll(() => page.locator('.kpi .value').allTextContents(), { timeout: 15_000 })
        .toEqual(kpiTexts(widgets, data.kpis, data.currency));
      // Rates read as percentages (0.03 is 3%), as in the MCP App.
      expect((await page.locator('.kpi .value').allTextContents()).some((text) => text.endsWith('%'))).toBe(true);
      await keep(page, 'web-report.png');
      await page.selectOption('select[aria-label="Compare with"]', 'none');
      await expect
        .poll(() => page.locator('.sub').first().textContent(), { timeout: 15_000 })
        .not.toContain('compared with');
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it.skipIf(!chromiumAvailable)(
    "AI visibility at 390 px: v1's totals for the locale shown, " +
      "nothing wider than the screen but the tables' own scroll",
    async () => {
      const { context, page, problems } = await signedInPage(390);
      await page.goto(`${served.baseUrl}/app/ai-visibility/${projectId}`);
      await page.locator('.kpi').first().waitFor({ timeout: 15_000 });
      const locale = await page.locator('select[aria-label="Locale"]').inputValue();
      const totals = (await v1(`/ai-visibility/projects/${projectId}/metrics`)).data.totals.find(
        (row: { locale: string }) => row.locale === locale,
      );
      expect(await page.locator('.kpi', { hasText: 'Visibility' }).locator('.value').textContent()).toBe(
        en.percent.format(totals.visibility),
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // Why: pages read beside the citations, and v1's opportunities for the locale shown.
      await expect.poll(() => page.locator('th', { hasText: 'Runs that read it' }).count()).toBeGreaterThan(0);
      const opportunities = (await v1(`/ai-visibility/projects/${projectId}/opportunities?limit=5&locale=${locale}`))
        .data;
      for (const item of opportunities.pages)
        expect(
          await page
            .locator('table', { hasText: 'Own pages read but not cited' })
            .locator('th', { hasText: item.url })
            .count(),
        ).toBe(1);
      for (const item of opportunities.sources)
        expect(
          await page
            .locator('table', { hasText: 'Sites citing competitors' })
            .locator('th', { hasText: item.domain })
            .count(),
        ).toBe(1);
      expect(opportunities.pages.length + opportunities.sources.length).toBeGreaterThan(0);
      await keep(page, 'web-visibility-390.png');
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it.skipIf(!chromiumAvailable)("answers: v1's total and a prompt chosen in the page", async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${served.baseUrl}/app/ai-visibility/${projectId}/answers`);
    const answers = await v1(`/ai-visibility/projects/${projectId}/answers?limit=20`);
    await expect
      .poll(() => page.locator('p[role=status]').textContent(), { timeout: 15_000 })
      .toBe(`1–${Math.min(20, answers.meta.total)} of ${en.number.format(answers.meta.total)}`);
    // Why: each answer's searches and pages read, as v1 has them.
    const first = answers.data[0];
    const card = page.locator('article.answer').first();
    if (first.searchQueries.length)
      expect(await card.locator('.meta', { hasText: 'Searched:' }).textContent()).toBe(
        `Searched: ${first.searchQueries.map((query: string) => `“${query}”`).join(' · ')}`,
      );
    expect(await card.locator('ul[aria-label="Pages read"] li').count()).toBe(first.retrieved.length);
    expect(await card.locator('ul[aria-label="Pages read"] li.uncited').count()).toBe(
      first.retrieved.filter((item: { cited: boolean }) => !item.cited).length,
    );
    await keep(page, 'web-answers.png');
    const prompt = (await v1(`/ai-visibility/projects/${projectId}/prompts`)).data[0];
    await page.getByRole('button', { name: prompt.text }).click();
    const ofPrompt = await v1(`/ai-visibility/projects/${projectId}/answers?limit=20&promptId=${prompt.id}`);
    await expect
      .poll(() => page.locator('p[role=status]').textContent(), { timeout: 15_000 })
      .toBe(`1–${Math.min(20, ofPrompt.meta.total)} of ${en.number.format(ofPrompt.meta.total)}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.skipIf(!chromiumAvailable)('show nothing of another workspace: its report is a 404 page', async () => {
    const { context, page } = await signedInPage();
    const response = await page.goto(`${served.baseUrl}/app/reports/${otherReportId}`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Not found');
    expect(await page.locator('.kpi').count()).toBe(0);
    await context.close();
  });
});

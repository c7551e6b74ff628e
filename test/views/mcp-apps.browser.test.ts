// The three views as MCP Apps in a real browser: a test host on the SDK's AppBridge renders each
// ui:// resource from the running service with a real tool result (an MCP client with a real
// token), the view's own actions call its app-only tool back through the host, and what is on
// screen is v1's numbers — with no console error and no CSP violation.
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useListeningApp } from '../support/listen.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';
import { showInAppsHost, type HostedView } from '../support/apps-host.js';
import { en, kpiTexts, seededViewsWorkspace, v1Get } from '../support/views.js';

const served = useListeningApp();
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
// Screenshots are kept out of the repository, for people to look at (scratch/ is ignored).
const KEPT = path.resolve(import.meta.dirname, '../../scratch/views');
let browser: Browser;
let host: Client;
let apiKey: string;
let reportId: string;
let projectId: string;

const v1 = (route: string) => v1Get(served.baseUrl, route, apiKey);

async function show(
  uri: string,
  tool: string,
  args: Record<string, unknown>,
  options: { theme?: 'light' | 'dark'; width?: number } = {},
): Promise<HostedView> {
  const { contents } = await host.readResource({ uri });
  const toolResult = await host.callTool({ name: tool, arguments: args });
  return showInAppsHost(browser, {
    html: (contents[0] as { text: string }).text,
    toolInput: args,
    toolResult,
    callTool: (params) => host.callTool(params),
    ...options,
  });
}

/** The whole page, and its first screen (what a person sees first, and what the docs show). */
async function keep(hosted: HostedView, name: string) {
  // The host sizes the frame from the view's (debounced) size notifications: wait for the last one.
  await expect
    .poll(
      async () =>
        (await hosted.view.evaluate(() => document.documentElement.scrollHeight)) ===
        (await hosted.page.evaluate(() => document.querySelector('iframe')!.getBoundingClientRect().height)),
      { timeout: 10_000 },
    )
    .toBe(true);
  mkdirSync(KEPT, { recursive: true });
  await hosted.page.screenshot({ path: screenshotPath(name.replace('.png', '-top.png')) });
  copyFileSync(screenshotPath(name.replace('.png', '-top.png')), path.join(KEPT, name.replace('.png', '-top.png')));
  // Chromium's full-page capture leaves a grown iframe blank: the viewport is grown to it instead.
  const { width } = hosted.page.viewportSize()!;
  await hosted.page.setViewportSize({
    width,
    height: Math.ceil(
      await hosted.page.evaluate(() => document.querySelector('iframe')!.getBoundingClientRect().height),
    ),
  });
  await hosted.page.screenshot({ path: screenshotPath(name) });
  copyFileSync(screenshotPath(name), path.join(KEPT, name));
}

beforeAll(async () => {
  if (!chromiumAvailable) return;
  const seeded = await seededViewsWorkspace(served);
  ({ apiKey, reportId, projectId } = seeded);
  host = await connectMcp(
    served.baseUrl,
    new TestOAuthProvider({ cookie: seeded.cookie, workspaceId: seeded.workspaceId }),
    '/mcp/x/all',
    { capabilities: UI as never },
  );
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe.skipIf(!chromiumAvailable)('the views as MCP Apps', () => {
  it("AI visibility: v1's totals on screen; a range chosen in the view is read through the host", async () => {
    const hosted = await show('ui://signalboard/visibility', 'get_ai_visibility_metrics', { id: projectId });
    const metrics = (await v1(`/ai-visibility/projects/${projectId}/metrics`)).data;
    const tile = (name: string) => hosted.view.locator('.kpi', { hasText: name }).locator('.value').first();
    // One locale at a time: the one the view chose.
    await hosted.view.locator('.kpi').first().waitFor({ timeout: 15_000 });
    const locale = await hosted.view.locator('select[aria-label="Locale"]').inputValue();
    const first = metrics.totals.find((row: { locale: string }) => row.locale === locale);
    expect(await tile('Visibility').textContent()).toBe(en.percent.format(first.visibility));
    expect(await tile('Share of voice').textContent()).toBe(en.percent.format(first.shareOfVoice));
    // Three charts over time (visibility, share of voice, average position), a bar for the brand and each competitor.
    expect(await hosted.view.locator('.plot canvas').count()).toBe(3);
    expect(await hosted.view.locator('.bar-list li').count()).toBe(1 + first.competitors.length);
    await keep(hosted, 'mcp-visibility.png');
    await hosted.view.selectOption('select[aria-label="Range"]', '7');
    await expect.poll(() => hosted.calls.length, { timeout: 15_000 }).toBe(2);
    expect(hosted.calls.map((call) => call.name)).toEqual(['view_visibility', 'view_visibility']);
    expect(hosted.calls[1]!.arguments).toMatchObject({ id: projectId, dateTo: metrics.range.to });
    expect(hosted.problems).toEqual([]);
    await hosted.page.close();
  });

  it("report: v1's KPIs on screen; the preset switched in the view; dark theme from the host", async () => {
    const hosted = await show('ui://signalboard/report', 'get_report_data', { id: reportId }, { theme: 'dark' });
    const data = (await v1(`/reports/${reportId}/data`)).data;
    const { widgets } = (await v1(`/reports/${reportId}`)).data.definition;
    await expect
      .poll(() => hosted.view.locator('.kpi .value').allTextContents(), { timeout: 15_000 })
      .toEqual(kpiTexts(widgets, data.kpis, data.currency));
    // Rates read as percentages (0.03 is 3%), as on the web page.
    expect((await hosted.view.locator('.kpi .value').allTextContents()).some((text) => text.endsWith('%'))).toBe(true);
    await keep(hosted, 'mcp-report-dark.png');
    await hosted.view.selectOption('select[aria-label="Dates"]', 'last_7_days');
    await expect.poll(() => hosted.calls.at(-1)?.arguments.datePreset, { timeout: 15_000 }).toBe('last_7_days');
    const week = (await v1(`/reports/${reportId}/data?datePreset=last_7_days`)).data;
    await expect
      .poll(() => hosted.view.locator('.kpi .value').allTextContents(), { timeout: 15_000 })
      .toEqual(kpiTexts(widgets, week.kpis, week.currency));
    expect(hosted.problems).toEqual([]);
    await hosted.page.close();
  });

  it('a replayed result of an older shape still shows its project; a result it cannot read says so', async () => {
    const { contents } = await host.readResource({ uri: 'ui://signalboard/visibility' });
    const html = (contents[0] as { text: string }).text;
    // No arguments, and a result with only the id and range where the data used to be.
    const metrics = (await v1(`/ai-visibility/projects/${projectId}/metrics`)).data;
    const older = {
      content: [{ type: 'text', text: '{}' }],
      structuredContent: { aiVisibilityMetrics: { data: { projectId, range: metrics.range } } },
    };
    const replayed = await showInAppsHost(browser, {
      html,
      toolInput: {},
      toolResult: older,
      callTool: (params) => host.callTool(params),
    });
    await replayed.view.locator('.kpi').first().waitFor({ timeout: 15_000 });
    expect(replayed.calls[0]).toMatchObject({
      name: 'view_visibility',
      arguments: { id: projectId, dateFrom: metrics.range.from, dateTo: metrics.range.to },
    });
    expect(replayed.problems).toEqual([]);
    await replayed.page.close();
    const unknown = await showInAppsHost(browser, {
      html,
      toolInput: {},
      toolResult: { content: [{ type: 'text', text: 'hello' }], structuredContent: { something: 'else' } },
      callTool: (params) => host.callTool(params),
    });
    await expect
      .poll(() => unknown.view.locator('.notice').textContent(), { timeout: 15_000 })
      .toBe('Nothing to show for this result.');
    expect(unknown.calls).toEqual([]);
    await unknown.page.close();
  });

  it("answers: v1's total, the next page through the host, mentions marked", async () => {
    const hosted = await show('ui://signalboard/answers', 'list_answers', { id: projectId, limit: 5 }, { width: 390 });
    const answers = await v1(`/ai-visibility/projects/${projectId}/answers?limit=20`);
    await expect
      .poll(() => hosted.view.locator('p[role=status]').textContent(), { timeout: 15_000 })
      .toBe(`1–${Math.min(20, answers.meta.total)} of ${en.number.format(answers.meta.total)}`);
    expect(await hosted.view.locator('article.answer').count()).toBe(Math.min(20, answers.data.length));
    expect(await hosted.view.locator('mark.brand').count()).toBeGreaterThan(0);
    await keep(hosted, 'mcp-answers-390.png');
    await hosted.view.getByRole('button', { name: 'Older →' }).click();
    await expect.poll(() => hosted.view.locator('p[role=status]').textContent(), { timeout: 15_000 }).toMatch(/^21–/);
    expect(hosted.calls.at(-1)?.arguments.cursor).toBe(answers.meta.nextCursor);
    // The cursors of earlier pages are the view's own, and an MCP App keeps its state out of any address.
    expect(hosted.calls.at(-1)?.arguments).not.toHaveProperty('before');
    expect(hosted.calls.at(-1)?.arguments).not.toHaveProperty('page');
    expect(await hosted.view.locator('body').evaluate(() => location.search)).toBe('');
    expect(hosted.problems).toEqual([]);
    await hosted.page.close();
  });
});

// The views drawn for a token whose consent leaves sections out, in a real browser (the test
// MCP Apps host): what the consent covers is on screen, each section left out says so and names
// the toolset that would show it, the report view refused says why, and nothing fails.
import path from 'node:path';
import { copyFileSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useListeningApp } from '../support/listen.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';
import { growToView, showInAppsHost, type HostedView } from '../support/apps-host.js';
import { seededViewsWorkspace } from '../support/views.js';

const served = useListeningApp();
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
// Screenshots are kept out of the repository, for people to look at (scratch/ is ignored).
const KEPT = path.resolve(import.meta.dirname, '../../scratch/views');
let browser: Browser;
let seeded: Awaited<ReturnType<typeof seededViewsWorkspace>>;
const clients: Client[] = [];

/** An MCP Apps host whose token was granted only `toolsets`. */
async function hostFor(toolsets: string[]): Promise<Client> {
  const provider = new TestOAuthProvider(
    { cookie: seeded.cookie, workspaceId: seeded.workspaceId, toolsets, writes: false },
    `Only ${toolsets.join(', ')}`,
  );
  const client = await connectMcp(served.baseUrl, provider, '/mcp/x/all', { capabilities: UI as never });
  clients.push(client);
  return client;
}

async function show(host: Client, uri: string, tool: string, args: Record<string, unknown>): Promise<HostedView> {
  const { contents } = await host.readResource({ uri });
  const toolResult = await host.callTool({ name: tool, arguments: args });
  return showInAppsHost(browser, {
    html: (contents[0] as { text: string }).text,
    toolInput: args,
    toolResult,
    callTool: (params) => host.callTool(params),
  });
}

/** The first screen (what a person sees first), then the whole view. */
async function keep(hosted: HostedView, name: string) {
  mkdirSync(KEPT, { recursive: true });
  for (const shot of [name.replace('.png', '-top.png'), name]) {
    if (shot === name) await growToView(hosted);
    await hosted.page.screenshot({ path: screenshotPath(shot) });
    copyFileSync(screenshotPath(shot), path.join(KEPT, shot));
  }
}

beforeAll(async () => {
  if (!chromiumAvailable) return;
  seeded = await seededViewsWorkspace(served);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  for (const client of clients) await client.close();
});

describe.skipIf(!chromiumAvailable)('the views within a narrow consent', () => {
  it(
    'AI visibility for a visibility-only token: the rates, and a note where the cited ' +
      'sources and opportunities would be',
    async () => {
      const hosted = await show(
        await hostFor(['visibility']),
        'ui://signalboard/visibility',
        'get_ai_visibility_metrics',
        { id: seeded.projectId },
      );
      await hosted.view.locator('.kpi').first().waitFor({ timeout: 15_000 });
      expect(await hosted.view.locator('.notice.withheld').allTextContents()).toEqual([
        'Cited sources are not shown: this connection was not granted the answers toolset; ' +
          'reconnect the app and grant it to see them.',
        'Opportunities are not shown: this connection was not granted the answers toolset; ' +
          'reconnect the app and grant it to see them.',
      ]);
      expect(await hosted.view.getByText('Most cited domains', { exact: false }).count()).toBe(0);
      await keep(hosted, 'mcp-visibility-visibility-only.png');
      expect(hosted.problems).toEqual([]);
      await hosted.page.close();
    },
  );

  it(
    'answers for an answers-only token: every answer with its prompt, notes for the project ' +
      "and the prompts' totals",
    async () => {
      const hosted = await show(await hostFor(['answers']), 'ui://signalboard/answers', 'list_answers', {
        id: seeded.projectId,
        limit: 5,
      });
      await hosted.view.locator('article.answer').first().waitFor({ timeout: 15_000 });
      const notes = await hosted.view.locator('.notice.withheld').allTextContents();
      expect(notes).toHaveLength(2);
      expect(notes[0]).toMatch(/^The project’s brand and competitors .* not shown: .*the visibility toolset/);
      expect(notes[1]).toMatch(/^The prompts with their totals are not shown: .*the prompts toolset/);
      expect(await hosted.view.locator('.prompts table').count()).toBe(0);
      expect(await hosted.view.locator('article.answer .meta', { hasText: /^Prompt: / }).count()).toBe(
        await hosted.view.locator('article.answer').count(),
      );
      await keep(hosted, 'mcp-answers-answers-only.png');
      expect(hosted.problems).toEqual([]);
      await hosted.page.close();
    },
  );

  it('the report view for a report_data-only token says which toolset it needs', async () => {
    const host = await hostFor(['report_data']);
    const hosted = await show(host, 'ui://signalboard/report', 'get_report_data', { id: seeded.reportId });
    await expect
      .poll(() => hosted.view.locator('.notice.error').textContent(), { timeout: 15_000 })
      .toMatch(/also shows data of the toolset reports, .*grant reports/);
    await keep(hosted, 'mcp-report-report-data-only.png');
    await hosted.page.close();
  });
});

// MCP Apps on the connector: views as ui:// resources, the model tools that name them, and the
// views' app-only tools — shown only to clients that declare the extension, in both protocol
// eras, bounded by consent like any tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { encode } from 'gpt-tokenizer';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { seedWorkspace } from '../../src/demo/seed.js';

const served = useListeningApp();
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const VIEW_URIS = ['ui://signalboard/report', 'ui://signalboard/visibility', 'ui://signalboard/answers'];
let provider: TestOAuthProvider;
let plain: LegacyClient;
let host: LegacyClient;
let owner: { cookie: string; csrf: string };
let workspaceId: string;
let apiKey: string;
let projectId: string;

type Listed = { name: string; _meta?: { ui?: { resourceUri?: string; visibility?: string[] } } };
const modelTools = (tools: Listed[]) =>
  tools.filter((tool) => !tool._meta?.ui?.visibility || tool._meta.ui.visibility.includes('model'));

beforeAll(async () => {
  const keyed = await createKeyedWorkspace(served.t.database);
  workspaceId = keyed.workspace.id;
  apiKey = keyed.key.secret;
  await seedWorkspace(served.t.database.prisma, served.t.database.pool, { workspaceId, days: 10, clients: 1 });
  await personWithPassword(served.t.database, { email: keyed.ownerEmail });
  owner = await signIn(served.t.app, keyed.ownerEmail);
  provider = new TestOAuthProvider({ cookie: owner.cookie, workspaceId });
  plain = await connectMcp(served.baseUrl, provider, '/mcp/x/all');
  host = await connectMcp(served.baseUrl, provider, '/mcp/x/all', { capabilities: UI as never });
  const projects = await json(
    await fetch(`${served.baseUrl}/api/v1/ai-visibility/projects`, { headers: { authorization: `Bearer ${apiKey}` } }),
  );
  projectId = projects.data[0].id;
}, 60_000);
afterAll(async () => {
  await plain?.close();
  await host?.close();
});

describe('MCP Apps', () => {
  it('a client without the extension sees the list it always saw: no views, no app-only tools', async () => {
    const { tools } = await plain.listTools();
    expect(tools.some((tool) => tool._meta)).toBe(false);
    expect(tools.map((tool) => tool.name)).not.toContain('view_report');
  });

  it(
    'a 2025-era host that declares it at initialize gets the views on every later request; ' +
      'the model still sees the same tools within the budget',
    async () => {
      const { tools } = (await host.listTools()) as { tools: Listed[] };
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('get_report_data')?._meta?.ui).toEqual({ resourceUri: 'ui://signalboard/report' });
      expect(byName.get('get_ai_visibility_metrics')?._meta?.ui?.resourceUri).toBe('ui://signalboard/visibility');
      expect(byName.get('get_visibility_trend')?._meta?.ui?.resourceUri).toBe('ui://signalboard/visibility');
      expect(byName.get('list_answers')?._meta?.ui?.resourceUri).toBe('ui://signalboard/answers');
      for (const name of ['view_report', 'view_visibility', 'view_answers'])
        expect(byName.get(name)?._meta?.ui?.visibility).toEqual(['app']);
      const { tools: before } = await plain.listTools();
      expect(modelTools(tools).map((tool) => tool.name)).toEqual(before.map((tool) => tool.name));
      // What a host puts in the model's context: the tools it may call, with their metadata.
      expect(encode(JSON.stringify(modelTools(tools))).length).toBeLessThanOrEqual(24_000);
      const defaults = await connectMcp(served.baseUrl, provider, '/mcp', { capabilities: UI as never });
      try {
        expect(
          encode(JSON.stringify(modelTools((await defaults.listTools()).tools as Listed[]))).length,
        ).toBeLessThanOrEqual(8_000);
      } finally {
        await defaults.close();
      }
    },
  );

  it('a 2026-07-28 host declares it on each request and gets the same', async () => {
    const modern = new ModernClient(
      { name: 'apps-host', version: '1.0.0' },
      { capabilities: UI as never, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(
      new ModernTransport(new URL(`${served.baseUrl}/mcp/x/all`), { authProvider: provider as never }),
    );
    try {
      const { tools } = (await modern.listTools()) as { tools: Listed[] };
      expect(tools.find((tool) => tool.name === 'view_answers')?._meta?.ui?.visibility).toEqual(['app']);
      expect(tools.find((tool) => tool.name === 'list_answers')?._meta?.ui?.resourceUri).toBe(
        'ui://signalboard/answers',
      );
    } finally {
      await modern.close();
    }
  });

  it('serves each view as one self-contained HTML document that may connect nowhere', async () => {
    const { resources } = await plain.listResources();
    expect(
      resources
        .filter((resource) => resource.uri.startsWith('ui://'))
        .map((resource) => [resource.uri, resource.mimeType]),
    ).toEqual(VIEW_URIS.map((uri) => [uri, 'text/html;profile=mcp-app']));
    for (const uri of VIEW_URIS) {
      const { contents } = await plain.readResource({ uri });
      const [view] = contents as {
        uri: string;
        mimeType: string;
        text: string;
        _meta: { ui: { csp: Record<string, string[]> } };
      }[];
      expect(view!.mimeType).toBe('text/html;profile=mcp-app');
      expect(Object.values(view!._meta.ui.csp).flat()).toEqual([]);
      expect(view!.text).toMatch(/^<!doctype html>/);
      expect(view!.text).toContain('<script>');
      // Nothing loaded from elsewhere: no src or href attributes at all.
      expect(view!.text).not.toMatch(/\s(src|href)=/);
    }
  });

  it(
    "the views' tools are called like any tool: the numbers of the model's tool, and " +
      "refused outside the token's consent",
    async () => {
      const [view, metrics] = await Promise.all([
        host.callTool({ name: 'view_visibility', arguments: { id: projectId } }),
        host.callTool({ name: 'get_ai_visibility_metrics', arguments: { id: projectId } }),
      ]);
      const totals = (
        metrics.structuredContent as {
          aiVisibilityMetrics: { data: { totals: { locale: string; visibility: number }[] } };
        }
      ).aiVisibilityMetrics.data.totals;
      const viewTotals = (
        view.structuredContent as { node: { metrics: { data: { totals: { locale: string; visibility: number }[] } } } }
      ).node.metrics.data.totals;
      expect(viewTotals.map(({ locale, visibility }) => ({ locale, visibility }))).toEqual(
        totals.map(({ locale, visibility }) => ({ locale, visibility })),
      );
      const narrowed = new TestOAuthProvider(
        { cookie: owner.cookie, workspaceId, toolsets: ['reports'], writes: false },
        'Reports only',
      );
      const reportsOnly = await connectMcp(served.baseUrl, narrowed, '/mcp/x/all', { capabilities: UI as never });
      try {
        const refused = await reportsOnly.callTool({ name: 'view_visibility', arguments: { id: projectId } });
        expect(refused.isError).toBe(true);
        expect(JSON.stringify(refused.content)).toContain('consent does not include');
        expect((await reportsOnly.listTools()).tools.map((tool) => tool.name)).not.toContain('view_visibility');
      } finally {
        await reportsOnly.close();
      }
    },
  );
});

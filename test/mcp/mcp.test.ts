// The MCP connector end to end against a listening server: the official SDK client registers,
// signs in (with the web-app session), gets consent, exchanges and refreshes tokens, and calls
// every tool. Numbers equal v1; another workspace's ids are not found; bad tokens are 401 with
// the metadata pointer; write tools appear only when an admin switches them on, and are audited.
import { print } from 'graphql';
import { operationFileDocument } from '../../src/graphql/operation-files.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { setPlan } from '../../src/workspaces/service.js';
import { json } from '../support/app.js';
import { seededWorkspaces, type Keyed } from './seeded-workspaces.js';
import { useListeningApp } from '../support/listen.js';
import { call, personWithPassword, signIn } from '../support/web.js';
import { readFileSync } from 'node:fs';
import { DEFAULT_TOOLSETS, TOOLSETS } from '../../src/mcp/tools/toolsets.js';
import { APP_TOOLS } from '../../src/mcp/protocol/app-views.js';
import { WRITE_TOOLS } from '../../src/mcp/tools/write-tools.js';
import { encode } from 'gpt-tokenizer';
import { connectMcp, REDIRECT_URL, TestOAuthProvider } from '../support/mcp.js';
import { storedIdOf } from '../../src/mcp/oauth/oauth-adapter.js';

const served = useListeningApp();
// The reviewed catalogue (test/mcp/tool-schemas.test.ts): each tool's name and toolset.
const catalogue = JSON.parse(readFileSync(new URL('./snapshots/tools.json', import.meta.url), 'utf8')) as {
  name: string;
  toolset: string;
}[];
const toolsetOf = (name: string) => catalogue.find((entry) => entry.name === name)!.toolset;
let mine: Keyed;
let theirs: Keyed;
let admin: { cookie: string; csrf: string };
let client: Client;
let provider: TestOAuthProvider;
const ids = {
  client: '',
  report: '',
  project: '',
  theirClient: '',
  theirReport: '',
  theirProject: '',
  theirEndpoint: '',
};

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
}
const tool = async (name: string, args: Record<string, unknown> = {}, on = client) =>
  (await on.callTool({ name, arguments: args })) as ToolResult;
const errorOf = (result: ToolResult) => JSON.parse(result.content[0]!.text!).error as { code: string; message: string };
const mcpPost = (token: string | null, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) =>
  fetch(`${served.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  const db = served.t.database;
  ({ mine, theirs } = await seededWorkspaces(db));
  const first = async (table: 'client' | 'report' | 'aiProject', workspaceId: string) =>
    (await (db.prisma[table] as any).findFirstOrThrow({ where: { workspaceId }, orderBy: { id: 'asc' } })).id as string;
  ids.client = await first('client', mine.workspace.id);
  ids.report = await first('report', mine.workspace.id);
  ids.project = await first('aiProject', mine.workspace.id);
  ids.theirClient = await first('client', theirs.workspace.id);
  ids.theirReport = await first('report', theirs.workspace.id);
  ids.theirProject = await first('aiProject', theirs.workspace.id);
  ids.theirEndpoint = (
    await db.prisma.webhookEndpoint.create({
      data: {
        id: 'whe_0000000000000000000T',
        workspaceId: theirs.workspace.id,
        url: 'https://x.example',
        eventTypes: ['scan.completed'],
        secret: 'v1:a:b:c',
      },
    })
  ).id;
  // The other workspace's endpoint has an attempt, so that reading it from here would show.
  await db.prisma.webhookEvent.create({
    data: { id: 'evt_0000000000000000000T', workspaceId: theirs.workspace.id, type: 'scan.completed', payload: {} },
  });
  await db.prisma.webhookDelivery.create({
    data: {
      id: 'whd_0000000000000000000T',
      eventId: 'evt_0000000000000000000T',
      endpointId: ids.theirEndpoint,
      status: 'failed',
      attemptCount: 1,
    },
  });
  await db.prisma.webhookAttempt.create({
    data: {
      id: 'wha_0000000000000000000T',
      deliveryId: 'whd_0000000000000000000T',
      endpointId: ids.theirEndpoint,
      attempt: 1,
      responseStatus: 500,
      latencyMs: 12,
    },
  });
  await personWithPassword(db, { email: mine.ownerEmail });
  admin = await signIn(served.t.app, mine.ownerEmail);
  provider = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id });
  // Every toolset: the tests below read tools of all of them (the default URL is tested on its own).
  client = await connectMcp(served.baseUrl, provider, '/mcp/x/all');
}, 90_000);
afterAll(async () => {
  await client?.close();
});

describe('discovery and the OAuth flow', () => {
  it('publishes both metadata documents; a missing token is 401 with the pointer', async () => {
    const missing = await mcpPost(null);
    expect(missing.status).toBe(401);
    // The scopes of /mcp's selection: the default toolsets and writes, which SDK clients then ask for.
    expect(missing.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${served.baseUrl}/.well-known/oauth-protected-resource/mcp", ` +
        `scope="mcp mcp:core mcp:clients mcp:reports mcp:report_data mcp:visibility mcp:signals ` +
        `mcp:write"`,
    );
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      expect(await json(await served.t.app.fetch(new Request(`${served.baseUrl}${path}`)))).toMatchObject({
        resource: `${served.baseUrl}/mcp`,
        authorization_servers: [served.baseUrl],
      });
    }
    const metadata = await (await fetch(`${served.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: served.baseUrl,
      registration_endpoint: `${served.baseUrl}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      revocation_endpoint: `${served.baseUrl}/oauth/revoke`,
    });
  });

  it('serves the resource metadata to reads and a browser preflight only', async () => {
    const url = `${served.baseUrl}/.well-known/oauth-protected-resource/mcp`;
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://inspector.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Mcp-Protocol-Version/);
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const refused = await fetch(url, { method, body: method === 'DELETE' ? undefined : '{}' });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect((await refused.json()).error.code).toBe('method_not_allowed');
    }
  });

  it('registered the client dynamically, signed the person in by session, asked consent on our page', () => {
    expect(provider.client?.client_id).toBeTruthy();
    expect(provider.consentPage).toContain('Test MCP client');
    expect(provider.consentPage).toContain('Not verified by Signalboard');
    expect(provider.consentPage).toContain('<strong>127.0.0.1:1</strong>');
    expect(provider.lastAuthorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(provider.lastAuthorizationUrl?.searchParams.get('resource')).toBe(`${served.baseUrl}/mcp`);
    expect(provider.saved?.refresh_token).toBeTruthy();
    expect(provider.saved?.expires_in).toBeLessThanOrEqual(900);
  });

  it('sends a person without a session to sign in first, and back to the consent afterwards', async () => {
    const anonymous = new TestOAuthProvider({ cookie: 'sb_session=none' });
    await expect(connectMcp(served.baseUrl, anonymous)).rejects.toThrow(/no consent form/);
    expect(anonymous.consentPage).toContain('Sign in to Signalboard');
    expect(anonymous.consentPage).toMatch(/name="next" value="\/oauth\/interaction\/[A-Za-z0-9_-]+"/);
  });

  it('refuses plain PKCE and redirect URIs that were not registered', async () => {
    const authorize = (params: Record<string, string>) =>
      fetch(
        `${served.baseUrl}/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: provider.client!.client_id,
          scope: 'mcp',
          resource: `${served.baseUrl}/mcp`,
          ...params,
        })}`,
        { redirect: 'manual' },
      );
    const plain = await authorize({
      redirect_uri: REDIRECT_URL,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    expect(plain.headers.get('location') ?? '').toMatch(/error=invalid_request/);
    const foreign = await authorize({
      redirect_uri: 'https://evil.example/callback',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    expect(await foreign.text()).toContain('redirect_uri');
  });
});

describe('toolsets', () => {
  const listAt = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${served.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${provider.saved!.access_token}`,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    return { status: response.status, body: await json(response) };
  };
  const names = async (path: string, headers: Record<string, string> = {}) =>
    ((await listAt(path, headers)).body.result.tools as { name: string }[]).map((tool) => tool.name);
  const inToolsets = (toolsets: readonly string[], writes: boolean) =>
    catalogue
      .map(({ name, toolset }) => [name, toolset] as const)
      .filter(
        ([name, toolset]) =>
          toolsets.includes(toolset) &&
          !(name in APP_TOOLS) &&
          (writes || !WRITE_TOOLS.some((tool) => tool.name === name)),
      )
      .map(([name]) => name)
      .sort();

  it(
    'the URL picks them: /mcp the default ones, /mcp/x/<list> and /mcp/x/all, …/readonly ' +
      'without writes; headers do the same',
    async () => {
      expect((await names('/mcp')).sort()).toEqual(inToolsets(DEFAULT_TOOLSETS, false));
      expect((await names('/mcp/x/prompts,answers')).sort()).toEqual(inToolsets(['prompts', 'answers'], false));
      expect((await names('/mcp/x/all')).sort()).toEqual(inToolsets(TOOLSETS, false));
      expect((await names('/mcp', { 'X-MCP-Toolsets': 'answers' })).sort()).toEqual(inToolsets(['answers'], false));
      expect(await names('/mcp/x/all')).toEqual(await names('/mcp/x/all'));
      await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: true });
      try {
        expect((await names('/mcp/x/reports')).sort()).toEqual(inToolsets(['reports'], true));
        expect((await names('/mcp/x/reports/readonly')).sort()).toEqual(inToolsets(['reports'], false));
        expect((await names('/mcp/readonly')).sort()).toEqual(inToolsets(DEFAULT_TOOLSETS, false));
        expect((await names('/mcp/x/reports', { 'X-MCP-Readonly': 'true' })).sort()).toEqual(
          inToolsets(['reports'], false),
        );
      } finally {
        await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: false });
      }
    },
  );

  it(
    'fit the context budget, counted with a real tokenizer: the default toolsets ≤ 8 ' +
      '000 tokens, all 68 ≤ 24 000, writes included',
    async () => {
      const tokensOf = async (path: string) => encode(JSON.stringify((await listAt(path)).body.result.tools)).length;
      const count = async (path: string) => (await listAt(path)).body.result.tools.length as number;
      await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: true });
      try {
        expect(await count('/mcp/x/all')).toBe(68);
        const [defaults, all, defaultsReadonly] = [
          await tokensOf('/mcp'),
          await tokensOf('/mcp/x/all'),
          await tokensOf('/mcp/readonly'),
        ];
        const perToolset = await Promise.all(
          TOOLSETS.map(async (toolset) => `${toolset} ${await tokensOf(`/mcp/x/${toolset}`)}`),
        );
        console.info(
          `tools/list (o200k_base): default toolsets ${defaults} tokens (${defaultsReadonly} ` +
            `read-only), all 68 ${all}; per toolset with writes: ${perToolset.join(', ')}`,
        );
        expect(defaults).toBeLessThanOrEqual(8_000);
        expect(all).toBeLessThanOrEqual(24_000);
      } finally {
        await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: false });
      }
    },
  );

  it(
    'consent: the page offers what the URL asked for, the person narrows it, and the ' +
      'token sees no more at any URL',
    async () => {
      // /mcp/x/reports,answers asks for those toolsets and writes; /mcp/readonly for the defaults without writes.
      const readonlyChallenge = (
        await fetch(`${served.baseUrl}/mcp/readonly`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).headers.get('www-authenticate');
      expect(readonlyChallenge).toContain(
        'scope="mcp mcp:core mcp:clients mcp:reports mcp:report_data mcp:visibility mcp:signals"',
      );
      const narrowed = new TestOAuthProvider(
        { cookie: admin.cookie, workspaceId: mine.workspace.id, toolsets: ['reports'], writes: false },
        'Narrowed app',
      );
      const connected = await connectMcp(served.baseUrl, narrowed, '/mcp/x/reports,answers');
      await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: true });
      try {
        const offered = [...narrowed.consentPage.matchAll(/name="toolset" value="([^"]+)"/g)].map((match) => match[1]);
        expect(offered).toEqual(['reports', 'answers']);
        expect(narrowed.consentPage).toContain('name="writes" checked');
        expect(narrowed.saved!.scope?.split(' ')).toEqual(['mcp', 'mcp:reports']);
        const namesWith = async (path: string) => {
          const response = await fetch(`${served.baseUrl}${path}`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: `Bearer ${narrowed.saved!.access_token}`,
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          });
          return ((await json(response)).result.tools as { name: string }[]).map((tool) => tool.name).sort();
        };
        // Writes are on in the workspace, but this consent left them out; answers and every other
        // toolset were left out too.
        expect(await namesWith('/mcp/x/all')).toEqual(inToolsets(['reports'], false));
        expect(await namesWith('/mcp/x/reports,answers')).toEqual(inToolsets(['reports'], false));
        expect(await namesWith('/mcp/x/answers')).toEqual([]);
        // The URL selects answers but the consent left them out: the refusal says which, and what to do.
        const refused = errorOf(await tool('list_answers', { id: ids.project }, connected));
        expect([refused.code, refused.message]).toEqual([
          'forbidden',
          expect.stringContaining('consent does not include: reconnect the app and grant answers'),
        ]);
        // A write tool with the switch on but without a consent for changes says which of the two is missing.
        const noWrites = errorOf(
          await tool(
            'create_report',
            {
              name: 'x',
              definition: { widgets: [], dateConfig: { datePreset: 'last_7_days', comparePreset: 'none' } },
            },
            connected,
          ),
        );
        expect([noWrites.code, noWrites.message]).toEqual([
          'forbidden',
          expect.stringContaining('consent does not allow: reconnect the app and allow changes'),
        ]);
        const audit = await served.t.database.prisma.auditLogEntry.findFirstOrThrow({
          where: {
            workspaceId: mine.workspace.id,
            action: 'mcp.client_authorized',
            details: { path: ['clientName'], equals: 'Narrowed app' },
          },
        });
        expect(audit.details).toMatchObject({ toolsets: ['reports'], writes: false });
        // The form cannot widen what the app asked for: forged fields for another toolset and for writes are ignored.
        const forged = new TestOAuthProvider(
          {
            cookie: admin.cookie,
            workspaceId: mine.workspace.id,
            forged: [
              ['toolset', 'admin'],
              ['writes', 'on'],
            ],
          },
          'Forging app',
        );
        await (await connectMcp(served.baseUrl, forged, '/mcp/x/answers/readonly')).close();
        expect(forged.saved!.scope?.split(' ')).toEqual(['mcp', 'mcp:answers']);
        // The grant itself holds no more than was asked (the token's scopes would also be cut by the request's).
        const forgedAudit = await served.t.database.prisma.auditLogEntry.findFirstOrThrow({
          where: {
            workspaceId: mine.workspace.id,
            action: 'mcp.client_authorized',
            details: { path: ['clientName'], equals: 'Forging app' },
          },
        });
        expect(forgedAudit.details).toMatchObject({ toolsets: ['answers'], writes: false });
      } finally {
        await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: false });
        await connected.close();
      }
    },
  );

  it("a tool outside the URL's toolsets is refused; unknown toolsets are 400 and unknown paths 404", async () => {
    const response = await fetch(`${served.baseUrl}/mcp/x/reports`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${provider.saved!.access_token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'list_answers', arguments: { id: ids.project } },
      }),
    });
    const result = (await json(response)).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text).error.code).toBe('not_found');
    const unknown = await listAt('/mcp/x/reports,nonsense');
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'invalid_parameter']);
    expect(unknown.body.error.message).toContain('nonsense');
    expect((await listAt('/mcp', { 'X-MCP-Toolsets': 'nope' })).status).toBe(400);
    expect((await listAt('/mcp/y/reports')).status).toBe(404);
  });
});

describe('read tools', () => {
  it(
    'are the operations under graphql/operations/mcp, with input and output schemas; ' +
      'admin tools for owners; no write tools while off',
    async () => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      expect(names).toEqual([
        'compare_ai_visibility_periods',
        'compare_report_periods',
        'describe_metrics',
        'fetch',
        'get_ai_visibility_metrics',
        'get_ai_visibility_project',
        'get_answer',
        'get_citation_gaps',
        'get_cited_domains',
        'get_cited_urls',
        'get_client',
        'get_competitor_benchmark',
        'get_kpi_summary',
        'get_prompt_metrics',
        'get_report',
        'get_report_data',
        'get_signal',
        'get_top_movers',
        'get_visibility_trend',
        'get_webhook_event',
        'get_widget_data',
        'get_workspace',
        'list_ai_visibility_projects',
        'list_answers',
        'list_api_keys',
        'list_audit_log',
        'list_client_connections',
        'list_clients',
        'list_connected_apps',
        'list_members',
        'list_prompts',
        'list_reports',
        'list_scans',
        'list_signal_rules',
        'list_signals',
        'list_tags',
        'list_topics',
        'list_webhook_attempts',
        'list_webhook_endpoints',
        'preview_signal_rule',
        'query_metrics',
        'search',
        'whoami',
      ]);
      const reportData = tools.find((t) => t.name === 'get_report_data')!;
      expect(reportData.inputSchema).toMatchObject({
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', pattern: '^rep_' },
          datePreset: { type: 'string', pattern: expect.stringContaining('last_') },
        },
      });
      expect(
        new RegExp((reportData.inputSchema.properties as Record<string, { pattern: string }>).datePreset!.pattern).test(
          'last_30_days',
        ),
      ).toBe(true);
      expect(reportData.outputSchema).toMatchObject({ type: 'object', properties: { reportData: expect.any(Object) } });
      expect(reportData.annotations?.readOnlyHint).toBe(true);
      // Titles are sentence case with their words spelled right ("AI", "URLs", never "Ai").
      expect(tools.map((t) => t.title).filter((title) => /\bAi\b|\bUrls\b/.test(title ?? ''))).toEqual([]);
      expect(tools.find((t) => t.name === 'get_ai_visibility_metrics')!.title).toBe('Get AI-visibility metrics');
      expect(tools.find((t) => t.name === 'get_cited_urls')!.title).toBe('Get cited URLs');
    },
  );

  it('return what v1 returns for the same inputs', async () => {
    const v1 = async (path: string) => (await json(await served.t.get(path, mine.key.secret))).data;
    expect((await tool('list_clients')).structuredContent!.clients.data).toEqual(await v1('/api/v1/clients'));
    expect(
      (await tool('get_report_data', { id: ids.report, datePreset: 'last_30_days', comparePreset: 'previous_period' }))
        .structuredContent!.reportData.data,
    ).toEqual(await v1(`/api/v1/reports/${ids.report}/data?datePreset=last_30_days&comparePreset=previous_period`));
    const metrics = (
      await tool('get_ai_visibility_metrics', { id: ids.project, dateFrom: '2026-09-01', dateTo: '2026-11-30' })
    ).structuredContent!.aiVisibilityMetrics.data;
    const v1Metrics = await v1(
      `/api/v1/ai-visibility/projects/${ids.project}/metrics?dateFrom=2026-09-01&dateTo=2026-11-30`,
    );
    // A mirroring tool returns everything its endpoint does: rows with competitors, totals with
    // byModel and competitors.
    expect(metrics).toEqual(v1Metrics);
    // The report's widgets one at a time, its KPIs alone, and two ranges of one's own: the same numbers as v1.
    const v1Data = await v1(`/api/v1/reports/${ids.report}/data?datePreset=last_30_days&comparePreset=previous_period`);
    const widgetId = v1Data.kpis[0]?.widgetId ?? v1Data.charts[0]?.widgetId ?? v1Data.tables[0].widgetId;
    const widgetData = (
      await tool('get_widget_data', {
        id: ids.report,
        widgetId,
        datePreset: 'last_30_days',
        comparePreset: 'previous_period',
      })
    ).structuredContent!.node.widgetData;
    expect(widgetData.kpis).toEqual(v1Data.kpis.filter((k: any) => k.widgetId === widgetId));
    expect(widgetData.charts.length + widgetData.tables.length + (widgetData.kpis.length ? 1 : 0)).toBe(1);
    expect(errorOf(await tool('get_widget_data', { id: ids.report, widgetId: 'nope' })).code).toBe('invalid_parameter');
    expect(
      (await tool('get_kpi_summary', { id: ids.report, datePreset: 'last_30_days', comparePreset: 'previous_period' }))
        .structuredContent!.node.kpiSummary,
    ).toEqual(v1Data.kpis);
    const compared = (
      await tool('compare_report_periods', {
        id: ids.report,
        currentFrom: v1Data.range.from,
        currentTo: v1Data.range.to,
        previousFrom: v1Data.compareRange.from,
        previousTo: v1Data.compareRange.to,
      })
    ).structuredContent!.node.periodComparison;
    expect(compared.kpis).toEqual(v1Data.kpis);
    // A client's metrics by a dimension without a report: the numbers a report's table shows.
    const reportDefinition = (await v1(`/api/v1/reports/${ids.report}`)).definition;
    const tableWidget = reportDefinition.widgets.find((w: any) => w.type === 'table');
    const reportClient = (await v1(`/api/v1/reports/${ids.report}`)).clientId;
    if (tableWidget && reportClient) {
      const asked = (
        await tool('query_metrics', {
          id: reportClient,
          provider: tableWidget.provider,
          metrics: tableWidget.metrics,
          dimension: tableWidget.dimension,
          limit: tableWidget.limit ?? 10,
          datePreset: 'last_30_days',
          comparePreset: 'previous_period',
        })
      ).structuredContent!.node.metricsTable;
      expect(asked.rows).toEqual(v1Data.tables.find((t: any) => t.widgetId === tableWidget.id).rows);
      const movers = (
        await tool('get_top_movers', {
          id: reportClient,
          provider: tableWidget.provider,
          metric: tableWidget.metrics[0],
          dimension: tableWidget.dimension,
        })
      ).structuredContent!.node.topMovers;
      for (const [a, b] of movers.slice(1).map((m: any, i: number) => [movers[i], m]))
        expect(Math.abs(a.delta)).toBeGreaterThanOrEqual(Math.abs(b.delta));
    }
    expect(
      errorOf(
        await tool('query_metrics', {
          id: ids.client,
          provider: 'google_ads',
          metrics: ['sessions'],
          dimension: 'campaign',
        }),
      ).code,
    ).toBe('invalid_parameter');
    expect(
      errorOf(
        await tool('compare_report_periods', {
          id: ids.report,
          currentFrom: '2026-02-01',
          currentTo: '2026-01-01',
          previousFrom: '2025-01-01',
          previousTo: '2025-01-31',
        }),
      ).code,
    ).toBe('invalid_parameter');
    const benchmark = (
      await tool('get_competitor_benchmark', { id: ids.project, dateFrom: '2026-09-01', dateTo: '2026-11-30' })
    ).structuredContent!.aiVisibilityMetrics.data.totals;
    expect(benchmark.map((t: any) => t.competitors.map((c: any) => c.shareOfVoice))).toEqual(
      v1Metrics.totals.map((t: any) => t.competitors.map((c: any) => c.shareOfVoice)),
    );

    // Prompts, answers and sources: the same numbers as v1.
    const prompts = (await tool('list_prompts', { id: ids.project })).structuredContent!.aiVisibilityPrompts.data;
    const v1Prompts = await v1(`/api/v1/ai-visibility/projects/${ids.project}/prompts`);
    const promptMetrics = (await tool('get_prompt_metrics', { id: prompts[0].id })).structuredContent!.node.metrics;
    expect(promptMetrics.map((t: any) => [t.locale, t.visibility, t.shareOfVoice])).toEqual(
      v1Prompts[0].totals.map((t: any) => [t.locale, t.visibility, t.shareOfVoice]),
    );
    expect(prompts.map((p: any) => [p.id, p.totals.map((t: any) => [t.locale, t.visibility, t.shareOfVoice])])).toEqual(
      v1Prompts.map((p: any) => [p.id, p.totals.map((t: any) => [t.locale, t.visibility, t.shareOfVoice])]),
    );
    const answers = (await tool('list_answers', { id: ids.project, mentioned: true, limit: 20 })).structuredContent!
      .aiVisibilityAnswers;
    const v1Answers = await json(
      await served.t.get(
        `/api/v1/ai-visibility/projects/${ids.project}/answers?mentioned=true&limit=20`,
        mine.key.secret,
      ),
    );
    expect(answers.data.map((a: any) => [a.id, a.text, a.citations])).toEqual(
      v1Answers.data.map((a: any) => [a.id, a.text, a.citations]),
    );
    expect(answers.meta).toEqual(v1Answers.meta);
    expect(
      (await tool('get_answer', { id: ids.project, answerId: answers.data[0].id })).structuredContent!
        .aiVisibilityAnswer.data.text,
    ).toBe(answers.data[0].text);
    const domains = (await tool('get_cited_domains', { id: ids.project })).structuredContent!.aiVisibilitySources.data
      .rows;
    const v1Sources = await v1(`/api/v1/ai-visibility/projects/${ids.project}/sources`);
    expect(domains).toEqual(v1Sources.rows);
    expect(domains.some((row: any) => row.owned)).toBe(true);
  });

  it('every read tool answers', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['whoami', {}],
      ['describe_metrics', {}],
      ['list_clients', {}],
      ['get_client', { id: ids.client }],
      ['list_reports', { clientId: ids.client }],
      ['get_report', { id: ids.report }],
      ['get_report_data', { id: ids.report }],
      ['list_ai_visibility_projects', {}],
      ['get_ai_visibility_project', { id: ids.project }],
      ['get_ai_visibility_metrics', { id: ids.project }],
      [
        'compare_ai_visibility_periods',
        {
          id: ids.project,
          currentFrom: '2026-11-01',
          currentTo: '2026-11-30',
          previousFrom: '2026-10-01',
          previousTo: '2026-10-31',
        },
      ],
      ['get_competitor_benchmark', { id: ids.project }],
      ['list_scans', { id: ids.project, first: 5 }],
      ['list_signals', { id: ids.project }],
      ['list_signal_rules', { id: ids.project }],
      ['list_webhook_endpoints', {}],
      ['list_webhook_attempts', { endpointId: ids.theirEndpoint }],
      ['list_audit_log', { first: 5 }],
      ['get_workspace', {}],
      ['search', { query: 'north' }],
      ['list_members', {}],
      ['list_api_keys', {}],
      ['list_client_connections', { id: ids.client }],
      ['fetch', { id: ids.project }],
      ['fetch', { id: ids.report }],
      ['list_topics', { id: ids.project }],
      ['list_tags', { id: ids.project }],
      ['get_citation_gaps', { id: ids.project, limit: 5 }],
      ['get_visibility_trend', { id: ids.project, granularity: 'week' }],
      ['preview_signal_rule', { id: ids.project, kind: 'visibility_drop', threshold: 5 }],
      ['list_prompts', { id: ids.project, tag: 'budget' }],
      ['list_answers', { id: ids.project, domain: 'reddit.com', limit: 3 }],
      ['get_cited_domains', { id: ids.project, locale: 'en-US' }],
      ['get_cited_urls', { id: ids.project, limit: 3 }],
    ];
    for (const [name, args] of calls) {
      const result = await tool(name, args);
      expect(result.isError, `${name}: ${result.content[0]?.text?.slice(0, 200)}`).toBeFalsy();
      // The one text block is the structured content, for clients that read only `content`.
      expect(JSON.parse(result.content[0]!.text!), name).toEqual(result.structuredContent);
      // Tools run without leaf serialization (src/graphql/compile.ts): the same operation through
      // /graphql, which serializes every leaf, with the owner's session gives the same JSON text.
      const operation = print(operationFileDocument(`graphql/operations/mcp/${toolsetOf(name)}/${name}.graphql`));
      const graph = await json(
        await call(served.t.app, admin, 'POST', '/graphql', { query: operation, variables: args }),
      );
      expect(graph.errors, name).toBeUndefined();
      // whoami names the credential, which is the one thing the two doors differ in.
      if (name === 'whoami')
        expect([result.structuredContent!.viewer.credential, graph.data.viewer.credential]).toEqual([
          'OAUTH',
          'SESSION',
        ]);
      const sameDoor = (data: any) =>
        name === 'whoami' ? { ...data, viewer: { ...data.viewer, credential: null } } : data;
      expect(JSON.stringify(sameDoor(result.structuredContent)), name).toBe(JSON.stringify(sameDoor(graph.data)));
    }
    // A webhook event of this workspace with its deliveries; another workspace's is not found.
    const event = await served.t.database.prisma.webhookEvent.create({
      data: {
        id: 'evt_0000000000000000000M',
        workspaceId: mine.workspace.id,
        type: 'scan.completed',
        payload: { type: 'scan.completed', data: { scanId: 'scn_x' } },
      },
    });
    const shown = (await tool('get_webhook_event', { id: event.id })).structuredContent!.webhookEvent;
    expect(shown).toMatchObject({
      id: event.id,
      type: 'scan.completed',
      payload: { data: { scanId: 'scn_x' } },
      deliveries: [],
    });
    expect(errorOf(await tool('get_webhook_event', { id: 'evt_0000000000000000000T' })).code).toBe('not_found');
    // The admin lists show this workspace's people and keys only, and never a secret.
    const members = (await tool('list_members')).structuredContent!.members;
    expect(members.map((m: any) => m.email)).toContain(mine.ownerEmail);
    expect(members.map((m: any) => m.email)).not.toContain(theirs.ownerEmail);
    const keys = (await tool('list_api_keys')).structuredContent!.apiKeys;
    expect(keys.map((k: any) => k.id)).toContain(mine.key.id);
    expect(keys.map((k: any) => k.id)).not.toContain(theirs.key.id);
    expect(JSON.stringify(keys)).not.toContain(mine.key.secret.split('.')[1]);
    const apps = (await tool('list_connected_apps')).structuredContent!.connectedApps;
    expect(apps.map((a: any) => a.clientName)).toContain('Test MCP client');
    expect(apps.every((a: any) => a.userEmail === null || a.userEmail.endsWith('@example.test'))).toBe(true);
    expect(JSON.stringify(apps)).not.toContain(theirs.ownerEmail);
    const catalog = (await tool('describe_metrics')).structuredContent!.metricCatalog;
    expect(catalog.providers.map((p: any) => p.id)).toContain('google_ads');
    // Which way each metric is good, for an assistant to say "better" or "worse" as the views do.
    const ads = catalog.providers.find((p: any) => p.id === 'google_ads').metrics;
    expect(
      Object.fromEntries(
        ads.filter((m: any) => ['cpc', 'cost', 'roas'].includes(m.id)).map((m: any) => [m.id, m.direction]),
      ),
    ).toEqual({ cpc: 'lower', cost: 'neutral', roas: 'higher' });
    const comparison = (
      await tool('compare_ai_visibility_periods', {
        id: ids.project,
        currentFrom: '2026-11-01',
        currentTo: '2026-11-30',
        previousFrom: '2026-10-01',
        previousTo: '2026-10-31',
      })
    ).structuredContent!.node.periodComparison;
    const compared = comparison.filter((locale: any) => locale.current && locale.previous);
    expect(compared.length).toBeGreaterThan(0);
    for (const locale of compared)
      expect(locale.delta.visibility).toBeCloseTo(locale.current.visibility - locale.previous.visibility, 12);
    // Another workspace's endpoint has an attempt (see beforeAll); from here it has none.
    expect(await served.t.database.prisma.webhookAttempt.count({ where: { endpointId: ids.theirEndpoint } })).toBe(1);
    expect(
      (await tool('list_webhook_attempts', { endpointId: ids.theirEndpoint })).structuredContent!.webhookAttempts,
    ).toEqual([]);
  });

  it('never read another workspace: its ids are not found in every tool that takes one', async () => {
    const foreign: [string, Record<string, unknown>][] = [
      ['get_client', { id: ids.theirClient }],
      ['get_report', { id: ids.theirReport }],
      ['get_report_data', { id: ids.theirReport }],
      ['get_ai_visibility_project', { id: ids.theirProject }],
      ['get_ai_visibility_metrics', { id: ids.theirProject }],
      ['get_competitor_benchmark', { id: ids.theirProject }],
      ['list_scans', { id: ids.theirProject }],
      ['list_signals', { id: ids.theirProject }],
      ['list_signal_rules', { id: ids.theirProject }],
      [
        'compare_ai_visibility_periods',
        {
          id: ids.theirProject,
          currentFrom: '2026-11-01',
          currentTo: '2026-11-30',
          previousFrom: '2026-10-01',
          previousTo: '2026-10-31',
        },
      ],
    ];
    for (const [name, args] of foreign) {
      const result = await tool(name, args);
      expect(result.isError, name).toBe(true);
      expect(errorOf(result).code, name).toBe('not_found');
    }
    expect((await tool('list_reports', { clientId: ids.theirClient })).structuredContent!.reports.data).toEqual([]);
    // An id of another kind: GraphQL's `node` finds it but the tool's fragment selects nothing (an empty answer).
    const otherKind: [string, Record<string, unknown>, string][] = [
      [
        'query_metrics',
        { id: ids.report, provider: 'google_ads', metrics: ['clicks'], dimension: 'campaign' },
        'Client',
      ],
      ['get_client', { id: ids.report }, 'Client'],
      ['get_kpi_summary', { id: ids.client }, 'Report'],
      ['list_scans', { id: ids.client }, 'AiVisibilityProject'],
    ];
    for (const [name, args, type] of otherKind) {
      const { code, message } = errorOf(await tool(name, args));
      expect([name, code, message]).toEqual([
        name,
        'not_found',
        `That id is another kind's: this tool reads ${type} ids.`,
      ]);
    }
    const bad = await tool('get_report', { id: 'not-an-id' });
    expect(errorOf(bad).code).toBe('invalid_parameter');
    expect(errorOf(await tool('get_report', { id: ids.report, extra: 1 })).code).toBe('invalid_parameter');
  });

  it('reports are resources, and prompts are offered', async () => {
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates[0]!.uriTemplate).toBe('signalboard://reports/{id}');
    const resource = await client.readResource({ uri: `signalboard://reports/${ids.report}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).report.data.id).toBe(ids.report);
    await expect(client.readResource({ uri: `signalboard://reports/${ids.theirReport}` })).rejects.toThrow(
      /No resource/,
    );
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(['weekly_client_summary', 'ai_visibility_checkup']);
    const prompt = await client.getPrompt({ name: 'weekly_client_summary', arguments: { clientId: ids.client } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(ids.client);
  });
});

describe('members', () => {
  // The write tools, one case each, are in write-tools.test.ts.
  it('a member does not see or use the admin tools', async () => {
    const memberEmail = `member-${mine.workspace.slug}@example.test`;
    await personWithPassword(served.t.database, { email: memberEmail, workspaceId: mine.workspace.id, role: 'member' });
    const session = await signIn(served.t.app, memberEmail);
    // Every toolset, so that only the role hides the admin tools.
    const member = await connectMcp(
      served.baseUrl,
      new TestOAuthProvider({ cookie: session.cookie }, 'Member client'),
      '/mcp/x/all',
    );
    try {
      const names = (await member.listTools()).tools.map((t) => t.name);
      expect(names).toContain('list_answers');
      for (const adminTool of [
        'list_audit_log',
        'list_webhook_endpoints',
        'list_members',
        'list_api_keys',
        'list_connected_apps',
      ])
        expect(names).not.toContain(adminTool);
      expect(errorOf(await tool('list_audit_log', {}, member)).code).toBe('not_found');
      expect(errorOf(await tool('list_api_keys', {}, member)).code).toBe('not_found');
    } finally {
      await member.close();
    }
  });
});

describe('tokens', () => {
  const accessToken = () => provider.saved!.access_token;
  const expectInvalid = async (token: string) => {
    const response = await mcpPost(token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", scope="[^"]+", error="invalid_token"/,
    );
  };

  it('expired, wrong-audience and unknown tokens are 401 with the metadata pointer', async () => {
    await expectInvalid('not-a-token');
    const extra = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id }, 'Token tests');
    (await connectMcp(served.baseUrl, extra)).close();
    // The rows are changed behind the server's back, so the test drops the verified-token cache
    // itself (revocations announce themselves; these states cannot happen otherwise).
    const token = extra.saved!.access_token;
    await served.t.database.pool.query(
      "UPDATE oauth_models SET payload = jsonb_set(payload, '{aud}', '\"https://another.example/mcp\"') " +
        "WHERE model = 'AccessToken' AND id = $1",
      [storedIdOf('AccessToken', token)],
    );
    served.t.app.invalidate('oauth:*');
    await expectInvalid(token);
    await served.t.database.pool.query(
      "UPDATE oauth_models SET payload = jsonb_set(payload, '{aud}', to_jsonb($2::text)) " +
        "WHERE model = 'AccessToken' AND id = $1",
      [storedIdOf('AccessToken', token), `${served.baseUrl}/mcp`],
    );
    expect((await mcpPost(token)).status).toBe(200);
    const other = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id }, 'Expiry tests');
    (await connectMcp(served.baseUrl, other)).close();
    await served.t.database.pool.query(
      "UPDATE oauth_models SET expires_at = now() - interval '1 second' WHERE model = 'AccessToken' AND id = $1",
      [storedIdOf('AccessToken', other.saved!.access_token)],
    );
    served.t.app.invalidate('oauth:*');
    await expectInvalid(other.saved!.access_token);
  });

  it('a workspace that falls to the free plan gets a clear refusal', async () => {
    // As the CLI does it: the plan change is announced, and cached token holders go.
    const announce = async (target: string) => served.t.app.invalidate(target);
    await setPlan(served.t.database.prisma, announce, mine.workspace.slug, 'free');
    try {
      const response = await mcpPost(accessToken());
      expect(response.status).toBe(403);
      expect((await response.json()).error).toMatchObject({
        code: 'plan_required',
        message: 'The MCP connector needs the Starter, Pro, Agency or Scale plan; this workspace is on Free.',
      });
    } finally {
      await setPlan(served.t.database.prisma, announce, mine.workspace.slug, 'agency');
    }
  });

  it('grants are listed in settings; disconnecting one revokes its tokens; /oauth/revoke one token', async () => {
    const extra = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id }, 'Disconnect me');
    (await connectMcp(served.baseUrl, extra)).close();
    const apps = (await json(await call(served.t.app, admin, 'GET', '/app/settings/mcp'))).data.connectedApps;
    const grant = apps.find((app: { clientName: string }) => app.clientName === 'Disconnect me');
    expect(grant).toMatchObject({ userEmail: mine.ownerEmail });
    expect((await mcpPost(extra.saved!.access_token)).status).toBe(200);
    expect((await call(served.t.app, admin, 'POST', `/app/settings/mcp/grants/${grant.id}/revoke`, {})).status).toBe(
      200,
    );
    await expectInvalid(extra.saved!.access_token);

    const revoked = await fetch(`${served.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: accessToken(), client_id: provider.client!.client_id }),
    });
    expect(revoked.status).toBe(200);
    await expectInvalid(accessToken());
  });
  it('refreshes with rotation; reusing a rotated refresh token revokes the whole grant (theft detection)', async () => {
    const fresh = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id }, 'Refresh tests');
    const connected = await connectMcp(served.baseUrl, fresh);
    const before = fresh.saved!;
    fresh.saved = { ...before, access_token: 'expired-or-lost' };
    expect(await auth(fresh, { serverUrl: `${served.baseUrl}/mcp` })).toBe('AUTHORIZED');
    expect(fresh.saved.access_token).not.toBe('expired-or-lost');
    expect(fresh.saved.refresh_token).not.toBe(before.refresh_token);
    expect((await tool('whoami', {}, connected)).isError).toBeFalsy();
    const reuse = await fetch(`${served.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: before.refresh_token!,
        client_id: fresh.client!.client_id,
      }),
    });
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
    await expectInvalid(fresh.saved.access_token);
    await connected.close();
  });
});

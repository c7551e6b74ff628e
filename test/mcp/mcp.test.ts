// The MCP connector end to end against a listening server: the official SDK client registers,
// signs in (with the web-app session), gets consent, exchanges and refreshes tokens, and calls
// every tool. Numbers equal v1; another workspace's ids are not found; bad tokens are 401 with
// the metadata pointer; write tools appear only when an admin switches them on, and are audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { setPlan } from '../../src/workspaces/service.js';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { call, personWithPassword, signIn } from '../support/web.js';
import { connectMcp, REDIRECT_URL, TestOAuthProvider } from '../support/mcp.js';
import { storedIdOf } from '../../src/mcp/oauth-adapter.js';

const served = useListeningApp();
type Keyed = Awaited<ReturnType<typeof createKeyedWorkspace>>;
let mine: Keyed;
let theirs: Keyed;
let admin: { cookie: string; csrf: string };
let client: Client;
let provider: TestOAuthProvider;
const ids = { client: '', report: '', project: '', theirClient: '', theirReport: '', theirProject: '', theirEndpoint: '' };

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
}
const tool = async (name: string, args: Record<string, unknown> = {}, on = client) => (await on.callTool({ name, arguments: args })) as ToolResult;
const errorOf = (result: ToolResult) => JSON.parse(result.content[0]!.text!).error as { code: string; message: string };
const mcpPost = (token: string | null, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) =>
  fetch(`${served.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

beforeAll(async () => {
  const db = served.t.database;
  mine = await createKeyedWorkspace(db);
  theirs = await createKeyedWorkspace(db);
  for (const keyed of [mine, theirs]) await seedWorkspace(db.prisma, db.pool, { workspaceId: keyed.workspace.id, days: 40, clients: 2 });
  const first = async (table: 'client' | 'report' | 'aiProject', workspaceId: string) => (await (db.prisma[table] as any).findFirstOrThrow({ where: { workspaceId }, orderBy: { id: 'asc' } })).id as string;
  ids.client = await first('client', mine.workspace.id);
  ids.report = await first('report', mine.workspace.id);
  ids.project = await first('aiProject', mine.workspace.id);
  ids.theirClient = await first('client', theirs.workspace.id);
  ids.theirReport = await first('report', theirs.workspace.id);
  ids.theirProject = await first('aiProject', theirs.workspace.id);
  ids.theirEndpoint = (await db.prisma.webhookEndpoint.create({ data: { id: 'whe_0000000000000000000T', workspaceId: theirs.workspace.id, url: 'https://x.example', eventTypes: ['scan.completed'], secret: 'v1:a:b:c' } })).id;
  // The other workspace's endpoint has an attempt, so that reading it from here would show.
  await db.prisma.webhookEvent.create({ data: { id: 'evt_0000000000000000000T', workspaceId: theirs.workspace.id, type: 'scan.completed', payload: {} } });
  await db.prisma.webhookDelivery.create({ data: { id: 'whd_0000000000000000000T', eventId: 'evt_0000000000000000000T', endpointId: ids.theirEndpoint, status: 'failed', attemptCount: 1 } });
  await db.prisma.webhookAttempt.create({ data: { id: 'wha_0000000000000000000T', deliveryId: 'whd_0000000000000000000T', endpointId: ids.theirEndpoint, attempt: 1, responseStatus: 500, latencyMs: 12 } });
  await personWithPassword(db, { email: mine.ownerEmail });
  admin = await signIn(served.t.app, mine.ownerEmail);
  provider = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id });
  client = await connectMcp(served.baseUrl, provider);
}, 90_000);
afterAll(async () => {
  await client?.close();
});

describe('discovery and the OAuth flow', () => {
  it('publishes protected-resource and authorization-server metadata; a missing token is 401 with the pointer', async () => {
    const missing = await mcpPost(null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${served.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      expect(await json(await served.t.app.fetch(new Request(`${served.baseUrl}${path}`)))).toMatchObject({ resource: `${served.baseUrl}/mcp`, authorization_servers: [served.baseUrl] });
    }
    const metadata = await (await fetch(`${served.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ issuer: served.baseUrl, registration_endpoint: `${served.baseUrl}/oauth/register`, code_challenge_methods_supported: ['S256'], revocation_endpoint: `${served.baseUrl}/oauth/revoke` });
  });

  it('registered the client dynamically, signed the person in with their session and asked for consent on our page', () => {
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
    const authorize = (params: Record<string, string>) => fetch(`${served.baseUrl}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: provider.client!.client_id, scope: 'mcp', resource: `${served.baseUrl}/mcp`, ...params })}`, { redirect: 'manual' });
    const plain = await authorize({ redirect_uri: REDIRECT_URL, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
    expect(plain.headers.get('location') ?? '').toMatch(/error=invalid_request/);
    const foreign = await authorize({ redirect_uri: 'https://evil.example/callback', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    expect(await foreign.text()).toContain('redirect_uri');
  });
});


describe('read tools', () => {
  it('are the operations under graphql/operations/mcp, with input and output schemas; admin tools for owners; no write tools while off', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'compare_ai_visibility_periods', 'describe_metrics', 'get_ai_visibility_metrics', 'get_ai_visibility_project', 'get_client', 'get_competitor_benchmark', 'get_report', 'get_report_data',
      'list_ai_visibility_projects', 'list_audit_log', 'list_clients', 'list_reports', 'list_scans', 'list_signal_rules', 'list_signals', 'list_webhook_attempts', 'list_webhook_endpoints', 'whoami',
    ]);
    const reportData = tools.find((t) => t.name === 'get_report_data')!;
    expect(reportData.inputSchema).toMatchObject({ type: 'object', required: ['id'], properties: { id: { type: 'string' }, datePreset: { type: 'string', enum: expect.arrayContaining(['last_30_days']) } } });
    expect(reportData.outputSchema).toMatchObject({ type: 'object', properties: { reportData: expect.any(Object) } });
    expect(reportData.annotations?.readOnlyHint).toBe(true);
  });

  it('return what v1 returns for the same inputs', async () => {
    const v1 = async (path: string) => (await json(await served.t.get(path, mine.key.secret))).data;
    expect((await tool('list_clients')).structuredContent!.clients.data).toEqual(await v1('/api/v1/clients'));
    expect((await tool('get_report_data', { id: ids.report, datePreset: 'last_30_days', comparePreset: 'previous_period' })).structuredContent!.reportData.data).toEqual(
      await v1(`/api/v1/reports/${ids.report}/data?datePreset=last_30_days&comparePreset=previous_period`),
    );
    const metrics = (await tool('get_ai_visibility_metrics', { id: ids.project, dateFrom: '2026-09-01', dateTo: '2026-11-30' })).structuredContent!.aiVisibilityMetrics.data;
    const v1Metrics = await v1(`/api/v1/ai-visibility/projects/${ids.project}/metrics?dateFrom=2026-09-01&dateTo=2026-11-30`);
    expect(metrics.rows.length).toBe(v1Metrics.rows.length);
    expect(metrics.totals.map((t: any) => [t.locale, t.visibility, t.shareOfVoice, t.averagePosition, t.sentiment])).toEqual(v1Metrics.totals.map((t: any) => [t.locale, t.visibility, t.shareOfVoice, t.averagePosition, t.sentiment]));
    const benchmark = (await tool('get_competitor_benchmark', { id: ids.project, dateFrom: '2026-09-01', dateTo: '2026-11-30' })).structuredContent!.aiVisibilityMetrics.data.totals;
    expect(benchmark.map((t: any) => t.competitors.map((c: any) => c.shareOfVoice))).toEqual(v1Metrics.totals.map((t: any) => t.competitors.map((c: any) => c.shareOfVoice)));
  });

  it('every read tool answers', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['whoami', {}], ['describe_metrics', {}], ['list_clients', {}], ['get_client', { id: ids.client }], ['list_reports', { clientId: ids.client }], ['get_report', { id: ids.report }],
      ['get_report_data', { id: ids.report }], ['list_ai_visibility_projects', {}], ['get_ai_visibility_project', { id: ids.project }], ['get_ai_visibility_metrics', { id: ids.project }],
      ['compare_ai_visibility_periods', { id: ids.project, currentFrom: '2026-11-01', currentTo: '2026-11-30', previousFrom: '2026-10-01', previousTo: '2026-10-31' }],
      ['get_competitor_benchmark', { id: ids.project }], ['list_scans', { id: ids.project, first: 5 }], ['list_signals', { id: ids.project }], ['list_signal_rules', { id: ids.project }],
      ['list_webhook_endpoints', {}], ['list_webhook_attempts', { endpointId: ids.theirEndpoint }], ['list_audit_log', { first: 5 }],
    ];
    for (const [name, args] of calls) {
      const result = await tool(name, args);
      expect(result.isError, `${name}: ${result.content[0]?.text?.slice(0, 200)}`).toBeFalsy();
      expect(result.structuredContent, name).toBeTruthy();
    }
    const catalog = (await tool('describe_metrics')).structuredContent!.metricCatalog;
    expect(catalog.providers.map((p: any) => p.id)).toContain('google_ads');
    const comparison = (await tool('compare_ai_visibility_periods', { id: ids.project, currentFrom: '2026-11-01', currentTo: '2026-11-30', previousFrom: '2026-10-01', previousTo: '2026-10-31' })).structuredContent!.node.periodComparison;
    const compared = comparison.filter((locale: any) => locale.current && locale.previous);
    expect(compared.length).toBeGreaterThan(0);
    for (const locale of compared) expect(locale.delta.visibility).toBeCloseTo(locale.current.visibility - locale.previous.visibility, 12);
    // Another workspace's endpoint has an attempt (see beforeAll); from here it has none.
    expect(await served.t.database.prisma.webhookAttempt.count({ where: { endpointId: ids.theirEndpoint } })).toBe(1);
    expect((await tool('list_webhook_attempts', { endpointId: ids.theirEndpoint })).structuredContent!.webhookAttempts).toEqual([]);
  });

  it('never read another workspace: its ids are not found in every tool that takes one', async () => {
    const foreign: [string, Record<string, unknown>][] = [
      ['get_client', { id: ids.theirClient }], ['get_report', { id: ids.theirReport }], ['get_report_data', { id: ids.theirReport }], ['get_ai_visibility_project', { id: ids.theirProject }],
      ['get_ai_visibility_metrics', { id: ids.theirProject }], ['get_competitor_benchmark', { id: ids.theirProject }], ['list_scans', { id: ids.theirProject }], ['list_signals', { id: ids.theirProject }],
      ['list_signal_rules', { id: ids.theirProject }], ['compare_ai_visibility_periods', { id: ids.theirProject, currentFrom: '2026-11-01', currentTo: '2026-11-30', previousFrom: '2026-10-01', previousTo: '2026-10-31' }],
    ];
    for (const [name, args] of foreign) {
      const result = await tool(name, args);
      expect(result.isError, name).toBe(true);
      expect(errorOf(result).code, name).toBe('not_found');
    }
    expect((await tool('list_reports', { clientId: ids.theirClient })).structuredContent!.reports.data).toEqual([]);
    const bad = await tool('get_report', { id: 'not-an-id' });
    expect(errorOf(bad).code).toBe('invalid_parameter');
    expect(errorOf(await tool('get_report', { id: ids.report, extra: 1 })).code).toBe('invalid_parameter');
  });

  it('reports are resources, and prompts are offered', async () => {
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates[0]!.uriTemplate).toBe('signalboard://reports/{id}');
    const resource = await client.readResource({ uri: `signalboard://reports/${ids.report}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).report.data.id).toBe(ids.report);
    await expect(client.readResource({ uri: `signalboard://reports/${ids.theirReport}` })).rejects.toThrow(/No resource/);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(['weekly_client_summary', 'ai_visibility_checkup']);
    const prompt = await client.getPrompt({ name: 'weekly_client_summary', arguments: { clientId: ids.client } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(ids.client);
  });
});

describe('members and write tools', () => {
  it('a member does not see or use the admin tools', async () => {
    const memberEmail = `member-${mine.workspace.slug}@example.test`;
    await personWithPassword(served.t.database, { email: memberEmail, workspaceId: mine.workspace.id, role: 'member' });
    const session = await signIn(served.t.app, memberEmail);
    const member = await connectMcp(served.baseUrl, new TestOAuthProvider({ cookie: session.cookie }, 'Member client'));
    try {
      const names = (await member.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('list_audit_log');
      expect(names).not.toContain('list_webhook_endpoints');
      expect(errorOf(await tool('list_audit_log', {}, member)).code).toBe('not_found');
    } finally {
      await member.close();
    }
  });

  it('are hidden and refused while the switch is off, work once an admin turns it on, validated like the CLI and audited with the client name', async () => {
    const definition = { widgets: [{ id: 'clicks', type: 'kpi', title: 'Clicks', provider: 'google_ads', metrics: ['clicks'] }], dateConfig: { datePreset: 'last_30_days', comparePreset: 'previous_period' } };
    const refused = await tool('create_report', { name: 'From MCP', definition });
    expect(errorOf(refused).code).toBe('forbidden');
    expect(errorOf(refused).message).toContain('switches MCP write actions on');

    expect((await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: true })).status).toBe(200);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['create_report', 'update_report', 'update_report_widgets', 'archive_report', 'create_ai_visibility_project', 'update_ai_visibility_project', 'set_signal_rule']));

    const created = await tool('create_report', { name: 'From MCP', clientId: ids.client, definition });
    expect(created.isError, created.content[0]?.text).toBeFalsy();
    const reportId = created.structuredContent!.report.id;
    expect((await json(await served.t.get(`/api/v1/reports/${reportId}`, mine.key.secret))).data.name).toBe('From MCP');
    const invalid = await tool('update_report_widgets', { id: reportId, widgets: [{ id: 'x', type: 'kpi', title: 'X', provider: 'google_ads', metrics: ['sessions'] }] });
    expect(errorOf(invalid)).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('google_ads has no metric "sessions"') });
    expect((await tool('archive_report', { id: reportId })).isError).toBeFalsy();
    expect((await served.t.get(`/api/v1/reports/${reportId}`, mine.key.secret)).status).toBe(404);
    expect(errorOf(await tool('archive_report', { id: ids.theirReport })).code).toBe('not_found');

    const project = await tool('create_ai_visibility_project', { name: 'MCP project', brand: 'Acme', models: ['chatgpt'], locales: ['en-US'], competitors: ['Globex'] });
    expect(project.isError, project.content[0]?.text).toBeFalsy();
    expect(errorOf(await tool('create_ai_visibility_project', { name: 'x', brand: 'y', models: ['chatgpt'], locales: ['not a locale'] })).code).toBe('invalid_parameter');
    const rule = await tool('set_signal_rule', { projectId: ids.project, kind: 'visibility_drop', threshold: 15 });
    expect(rule.structuredContent!.rule).toMatchObject({ kind: 'visibility_drop', threshold: 15, enabled: true });

    const audit = await served.t.database.prisma.auditLogEntry.findMany({ where: { workspaceId: mine.workspace.id, action: { in: ['report.created', 'report.archived', 'ai_project.created', 'signal_rule.set'] } } });
    expect(audit.map((entry) => (entry.details as { via?: string }).via)).toEqual(['Test MCP client', 'Test MCP client', 'Test MCP client', 'Test MCP client']);
    await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: false });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('create_report');
  });
});

describe('tokens', () => {
  const accessToken = () => provider.saved!.access_token;
  const expectInvalid = async (token: string) => {
    const response = await mcpPost(token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp", error="invalid_token"/);
  };

  it('expired, wrong-audience and unknown tokens are 401 with the metadata pointer', async () => {
    await expectInvalid('not-a-token');
    const extra = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id }, 'Token tests');
    (await connectMcp(served.baseUrl, extra)).close();
    // The rows are changed behind the server's back, so the test drops the verified-token cache
    // itself (revocations announce themselves; these states cannot happen otherwise).
    const token = extra.saved!.access_token;
    await served.t.database.pool.query("UPDATE oauth_models SET payload = jsonb_set(payload, '{aud}', '\"https://another.example/mcp\"') WHERE model = 'AccessToken' AND id = $1", [storedIdOf('AccessToken', token)]);
    served.t.app.invalidate('oauth:*');
    await expectInvalid(token);
    await served.t.database.pool.query("UPDATE oauth_models SET payload = jsonb_set(payload, '{aud}', to_jsonb($2::text)) WHERE model = 'AccessToken' AND id = $1", [storedIdOf('AccessToken', token), `${served.baseUrl}/mcp`]);
    expect((await mcpPost(token)).status).toBe(200);
    const other = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id }, 'Expiry tests');
    (await connectMcp(served.baseUrl, other)).close();
    await served.t.database.pool.query("UPDATE oauth_models SET expires_at = now() - interval '1 second' WHERE model = 'AccessToken' AND id = $1", [storedIdOf('AccessToken', other.saved!.access_token)]);
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
      expect((await response.json()).error).toMatchObject({ code: 'plan_required', message: expect.stringContaining('paid plan') });
    } finally {
      await setPlan(served.t.database.prisma, announce, mine.workspace.slug, 'agency');
    }
  });

  it('grants are listed in settings; disconnecting one revokes its tokens; /oauth/revoke revokes one token', async () => {
    const extra = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id }, 'Disconnect me');
    (await connectMcp(served.baseUrl, extra)).close();
    const apps = (await json(await call(served.t.app, admin, 'GET', '/app/settings/mcp'))).data.connectedApps;
    const grant = apps.find((app: { clientName: string }) => app.clientName === 'Disconnect me');
    expect(grant).toMatchObject({ userEmail: mine.ownerEmail });
    expect((await mcpPost(extra.saved!.access_token)).status).toBe(200);
    expect((await call(served.t.app, admin, 'POST', `/app/settings/mcp/grants/${grant.id}/revoke`, {})).status).toBe(200);
    await expectInvalid(extra.saved!.access_token);

    const revoked = await fetch(`${served.baseUrl}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: accessToken(), client_id: provider.client!.client_id }) });
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
    const reuse = await fetch(`${served.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: fresh.client!.client_id }) });
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
    await expectInvalid(fresh.saved.access_token);
    await connected.close();
  });
});

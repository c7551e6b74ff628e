// The metrics' labels stay bounded whatever callers send, and the sources are read at scrape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { routeTemplateOf } from '../../src/observability/route-templates.js';
import { v1RouteTemplate } from '../../src/rest/routes.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { seedWorkspace } from '../../src/demo/seed.js';

describe('route templates', () => {
  it('name v1 routes by their documented template and everything else by a fixed label', () => {
    const template = (path: string) => routeTemplateOf(path, v1RouteTemplate);
    expect(template('/api/v1/reports/rep_0000000000000000000A/data')).toBe('/api/v1/reports/{id}/data');
    expect(template('/api/v1/clients')).toBe('/api/v1/clients');
    expect(template('/api/v1/no/such/thing')).toBe('/api/v1/*');
    expect(template('/app/settings/webhooks/whe_x/attempts')).toBe('/app/*');
    expect(template('/oauth/interaction/abc')).toBe('/oauth/*');
    expect(template('/mcp')).toBe('/mcp');
    expect(template('/wp-login.php')).toBe('other');
  });
});

describe('metrics of an app', () => {
  let t: TestApp;
  let keyed: Awaited<ReturnType<typeof createKeyedWorkspace>>;
  beforeAll(async () => {
    t = await createTestApp();
    keyed = await createKeyedWorkspace(t.database);
    await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 20, clients: 1 });
  });
  afterAll(() => t.close());

  it('keep every label bounded: 300 random paths and ids add no series beyond their templates', async () => {
    const report = await t.database.prisma.report.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } });
    for (let i = 0; i < 100; i++) {
      await t.get(`/random/${i}/${Math.random()}`);
      await t.get(`/api/v1/reports/rep_${String(i).padStart(20, '0')}`, keyed.key.secret);
      await t.app.fetch(new Request(`http://test.local/api/v1/clients?x=${i}`, { method: `M${i}` }));
    }
    await t.get(`/api/v1/reports/${report.id}/data`, keyed.key.secret);
    await t.get(`/api/v1/reports/${report.id}/data`, keyed.key.secret);
    const scrape = await t.app.metrics.text();
    const requestSeries = scrape.split('\n').filter((line) => line.startsWith('signalboard_http_requests_total{'));
    const routes = new Set(requestSeries.map((line) => /route="([^"]+)"/.exec(line)![1]));
    const methods = new Set(requestSeries.map((line) => /method="([^"]+)"/.exec(line)![1]));
    expect([...routes].sort()).toEqual(['/api/v1/clients', '/api/v1/reports/{id}', '/api/v1/reports/{id}/data', 'other'].sort());
    expect([...methods].sort()).toEqual(['GET', 'OTHER']);
    expect(requestSeries.length).toBeLessThan(12);
    // The data cache served the second report-data request.
    expect(scrape).toMatch(/signalboard_data_cache_lookups\{result="hit"\} [1-9]/);
    expect(scrape).toMatch(/signalboard_db_pool_connections\{pool="primary",state="idle"\} \d+/);
    expect(scrape).toMatch(/signalboard_webhook_outbox_backlog 0/);
  });

  it('count GraphQL operations by the web app\'s operation names; names a caller invents are "other"', async () => {
    const graphql = (query: string) =>
      t.app.fetch(new Request('http://test.local/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${keyed.key.secret}` }, body: JSON.stringify({ query }) }));
    for (let i = 0; i < 50; i++) await graphql(`query Invented${i} { viewer { scopes } }`);
    await graphql('query ClientsOverview { viewer { scopes } }');
    await graphql('query ProjectAnswers { node(id: "nope") { id } }');
    const series = (await t.app.metrics.text()).split('\n').filter((line) => line.startsWith('signalboard_graphql_operations_total{'));
    expect(series).toHaveLength(3);
    expect(series).toContain('signalboard_graphql_operations_total{operation="ClientsOverview",outcome="ok"} 1');
    expect(series).toContain('signalboard_graphql_operations_total{operation="other",outcome="ok"} 50');
    expect(series.some((line) => /^signalboard_graphql_operations_total\{operation="ProjectAnswers",outcome="(ok|error)"\} 1$/.test(line))).toBe(true);
  });

  it('name MCP tools only from the catalogue', async () => {
    const metrics = createMetrics();
    metrics.toolCall('get_report', 'ok');
    metrics.webhookDelivery('retry');
    const scrape = await metrics.text();
    expect(scrape).toContain('signalboard_mcp_tool_calls_total{tool="get_report",outcome="ok"} 1');
    expect(scrape).toContain('signalboard_webhook_deliveries_total{outcome="retry"} 1');
  });
});

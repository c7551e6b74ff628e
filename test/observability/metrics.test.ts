// The metrics' labels stay bounded whatever callers send, and the sources are read at scrape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { routeTemplateOf } from '../../src/observability/route-templates.js';
import { v1RouteTemplate } from '../../src/rest/routes.js';
import { Counter, Histogram, Registry } from 'prom-client';
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

describe('request metrics', () => {
  it("are exposed exactly as prom-client's own counter and histogram would expose the same requests", async () => {
    const requests: [string, string, number, number][] = [
      ['/api/v1/clients', 'GET', 200, 0.0031],
      ['/api/v1/clients', 'GET', 200, 0.001],
      ['/api/v1/clients', 'GET', 304, 0.0004],
      ['/api/v1/reports/{id}', 'HEAD', 404, 0.02],
      ['other', 'BREW', 405, 12],
      ['/api/v1/clients', 'GET', 200, 0.75],
    ];
    const metrics = createMetrics();
    const registry = new Registry();
    const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
    const counter = new Counter({
      name: 'signalboard_http_requests_total',
      help: 'HTTP requests by route template, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    });
    const histogram = new Histogram({
      name: 'signalboard_http_request_duration_seconds',
      help: 'HTTP request latency by route template and method.',
      labelNames: ['route', 'method'],
      buckets,
      registers: [registry],
    });
    for (const [route, method, status, seconds] of requests) {
      metrics.observeRequest(route, method, status, seconds);
      const verb = method === 'BREW' ? 'OTHER' : method;
      counter.inc({ route, method: verb, status: String(status) });
      histogram.observe({ route, method: verb }, seconds);
    }
    const families = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.includes('signalboard_http_request'))
        .join('\n');
    expect(families(await metrics.text())).toBe(families(await registry.metrics()));
    expect(families(await metrics.text())).toContain(
      'signalboard_http_request_duration_seconds_bucket{le="0.005",route="/api/v1/clients",method="GET"} 3',
    );
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
    expect([...routes].sort()).toEqual(
      ['/api/v1/clients', '/api/v1/reports/{id}', '/api/v1/reports/{id}/data', 'other'].sort(),
    );
    expect([...methods].sort()).toEqual(['GET', 'OTHER']);
    expect(requestSeries.length).toBeLessThan(12);
    // The data cache served the second report-data request.
    expect(scrape).toMatch(/signalboard_data_cache_lookups\{result="hit"\} [1-9]/);
    expect(scrape).toMatch(/signalboard_db_pool_connections\{pool="primary",state="idle"\} \d+/);
    expect(scrape).toMatch(/signalboard_webhook_outbox_backlog 0/);
  });

  it('count GraphQL operations by the web app\'s operation names; names a caller invents are "other"', async () => {
    const graphql = (query: string) =>
      t.app.fetch(
        new Request('http://test.local/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${keyed.key.secret}` },
          body: JSON.stringify({ query }),
        }),
      );
    for (let i = 0; i < 50; i++) await graphql(`query Invented${i} { viewer { scopes } }`);
    await graphql('query ClientsOverview { viewer { scopes } }');
    await graphql('query ProjectAnswers { node(id: "nope") { id } }');
    const series = (await t.app.metrics.text())
      .split('\n')
      .filter((line) => line.startsWith('signalboard_graphql_operations_total{'));
    expect(series).toHaveLength(3);
    expect(series).toContain('signalboard_graphql_operations_total{operation="ClientsOverview",outcome="ok"} 1');
    expect(series).toContain('signalboard_graphql_operations_total{operation="other",outcome="ok"} 50');
    expect(
      series.some((line) =>
        /^signalboard_graphql_operations_total\{operation="ProjectAnswers",outcome="(ok|error)"\} 1$/.test(line),
      ),
    ).toBe(true);
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

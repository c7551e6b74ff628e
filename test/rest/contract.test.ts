// One contract test per v1 endpoint through the real HTTP handler and a seeded database;
// every response body is validated against the served OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { createResponseValidator } from '../support/openapi-validator.js';
import pino from 'pino';

let t: TestApp;
let key: string;
let validate: ReturnType<typeof createResponseValidator>;
let reportId: string;
let projectId: string;
let clientId: string;

async function getValid(path: string, template: string, expectedStatus = 200) {
  const response = await t.get(path, key);
  const body = await json(response);
  expect(response.status, JSON.stringify(body)).toBe(expectedStatus);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  expect(validate(template, expectedStatus, body)).toEqual([]);
  return { response, body };
}

beforeAll(async () => {
  t = await createTestApp({ LIST_ROW_CAP: '3', METRICS_ROW_CAP: '5' });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 40, clients: 2 });
  const document = await json(await t.get('/api/v1/openapi.json'));
  validate = createResponseValidator(document);
  reportId = (await t.database.prisma.report.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
  const project = await t.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } });
  projectId = project.id;
  clientId = project.clientId!;
});
afterAll(() => t.close());

describe('GET /api/v1/clients', () => {
  it('lists clients newest first with providers and report counts, complete under the cap', async () => {
    const { response, body } = await getValid('/api/v1/clients', '/clients');
    expect(body.meta).toEqual({ total: 2, truncated: false });
    expect(body.data[0]).toEqual({
      id: expect.stringMatching(/^cli_/),
      name: expect.any(String),
      // The demo's clients report in their market's currency (null: not set).
      currency: expect.stringMatching(/^(USD|EUR|GBP)$/),
      connectedProviders: expect.arrayContaining(['google_analytics']),
      reportCount: 2,
      createdAt: expect.any(String),
    });
    expect(Date.parse(body.data[0].createdAt)).toBeGreaterThan(Date.parse(body.data[1].createdAt));
    // Timestamps leave as RFC 3339 at UTC with milliseconds, the instant stored.
    const stored = await t.database.prisma.client.findUniqueOrThrow({ where: { id: body.data[0].id } });
    expect(body.data[0].createdAt).toBe(stored.createdAt.toISOString());
    expect(response.headers.get('ratelimit-policy')).toBe('"burst";q=240;w=60');
    expect(response.headers.get('ratelimit')).toMatch(/^"burst";r=\d+;t=\d+$/);
  });
});

describe('GET /api/v1/reports', () => {
  it('caps to the most recent rows and says so in meta', async () => {
    const { body } = await getValid('/api/v1/reports', '/reports');
    expect(body.meta).toEqual({ total: 4, truncated: true });
    expect(body.data).toHaveLength(3);
    const times = body.data.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('filters by clientId, and an unknown but well-formed clientId gives an empty list', async () => {
    const { body } = await getValid(`/api/v1/reports?clientId=${clientId}`, '/reports');
    expect(body.meta).toEqual({ total: 2, truncated: false });
    expect(body.data.every((r: { clientId: string }) => r.clientId === clientId)).toBe(true);
    const empty = await getValid('/api/v1/reports?clientId=cli_AAAAAAAAAAAAAAAAAAAA', '/reports');
    expect(empty.body).toEqual({ data: [], meta: { total: 0, truncated: false } });
  });

  it('refuses a malformed or repeated clientId with 400 naming the parameter', async () => {
    const { body } = await getValid('/api/v1/reports?clientId=42', '/reports', 400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'clientId' });
    expect(
      (await getValid(`/api/v1/reports?clientId=${clientId}&clientId=${clientId}`, '/reports', 400)).body.error.param,
    ).toBe('clientId');
  });

  it('ignores unknown parameters', async () => {
    await getValid('/api/v1/reports?page=2&x[y]=1&%00=%00', '/reports');
  });
});

describe('GET /api/v1/reports/{id}', () => {
  it('returns the definition with widgets and date configuration', async () => {
    const { body } = await getValid(`/api/v1/reports/${reportId}`, '/reports/{id}');
    expect(body.meta).toEqual({});
    expect(body.data.id).toBe(reportId);
    expect(body.data.definition.widgets.length).toBeGreaterThan(0);
    expect(body.data.definition.dateConfig).toEqual({
      datePreset: expect.any(String),
      comparePreset: expect.any(String),
      timezone: 'UTC',
    });
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await getValid('/api/v1/reports/nope', '/reports/{id}', 400)).body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'id',
    });
    expect((await getValid('/api/v1/reports/rep_AAAAAAAAAAAAAAAAAAAA', '/reports/{id}', 404)).body.error.code).toBe(
      'not_found',
    );
    // Escapes that are not UTF-8 are refused before any route, as at every door (http/request-path.ts).
    expect((await getValid('/api/v1/reports/%E0%A4%A', '/reports/{id}', 400)).body.error.code).toBe('bad_request');
  });
});

describe('GET /api/v1/reports/{id}/data', () => {
  it('assembles KPIs, charts and tables for the requested presets', async () => {
    // "Yesterday" on both sides of the request: a run across midnight (UTC) sees either day.
    const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = yesterday();
    const { body } = await getValid(
      `/api/v1/reports/${reportId}/data?datePreset=last_7_days&comparePreset=previous_period`,
      '/reports/{id}/data',
    );
    const data = body.data;
    expect(data.reportId).toBe(reportId);
    expect(data.timezone).toBe('UTC');
    // Its money figures are in its client's currency.
    const { clientId } = await t.database.prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    const client = await t.database.prisma.client.findUniqueOrThrow({ where: { id: clientId! } });
    expect(data.currency).toBe(client.currency);
    expect(data.currency).toMatch(/^[A-Z]{3}$/);
    expect([before, yesterday()]).toContain(data.range.to);
    expect(Date.parse(data.range.to) - Date.parse(data.range.from)).toBe(6 * 86_400_000);
    expect(data.compareRange.to).toBe(new Date(Date.parse(data.range.from) - 86_400_000).toISOString().slice(0, 10));
    expect(data.kpis.length).toBeGreaterThan(0);
    expect(data.charts.length).toBeGreaterThan(0);
    expect(data.tables.length).toBeGreaterThan(0);
  });

  it("uses the report's dateConfig when no preset is given, and none means no comparison", async () => {
    const { body } = await getValid(`/api/v1/reports/${reportId}/data?comparePreset=none`, '/reports/{id}/data');
    expect(body.data.compareRange).toBeNull();
    expect(body.data.kpis.length).toBeGreaterThan(0);
    expect(
      body.data.kpis.every(
        (k: { previousValue: unknown; change: unknown }) => k.previousValue === null && k.change === null,
      ),
    ).toBe(true);
  });

  it('refuses an unknown preset, listing the allowed values', async () => {
    const { body } = await getValid(
      `/api/v1/reports/${reportId}/data?datePreset=last_8_days`,
      '/reports/{id}/data',
      400,
    );
    expect(body.error.param).toBe('datePreset');
    expect(body.error.message).toContain('last_7_days');
  });
});

describe('GET /api/v1/ai-visibility/projects', () => {
  it('lists projects with their fields and filters by client', async () => {
    const { body } = await getValid('/api/v1/ai-visibility/projects', '/ai-visibility/projects');
    expect(body.meta).toEqual({ total: 1, truncated: false });
    expect(body.data[0]).toMatchObject({
      id: projectId,
      brand: expect.any(String),
      competitors: expect.any(Array),
      models: expect.any(Array),
      locales: expect.any(Array),
    });
    const none = await getValid(
      '/api/v1/ai-visibility/projects?clientId=cli_AAAAAAAAAAAAAAAAAAAA',
      '/ai-visibility/projects',
    );
    expect(none.body.meta.total).toBe(0);
  });
});

describe('GET /api/v1/ai-visibility/projects/{id}/metrics', () => {
  it('caps rows but keeps totals over the whole range', async () => {
    const { body } = await getValid(
      `/api/v1/ai-visibility/projects/${projectId}/metrics`,
      '/ai-visibility/projects/{id}/metrics',
    );
    expect(body.data.rows).toHaveLength(5);
    expect(body.meta.truncated).toBe(true);
    expect(body.meta.total).toBeGreaterThan(5);
    const totalRuns = body.data.totals.reduce(
      (sum: number, locale: { totalRuns: number }) => sum + locale.totalRuns,
      0,
    );
    const returnedRuns = body.data.rows.reduce((sum: number, row: { totalRuns: number }) => sum + row.totalRuns, 0);
    expect(totalRuns).toBeGreaterThan(returnedRuns);
  });

  it('refuses an unknown model and a reversed range', async () => {
    expect(
      (
        await getValid(
          `/api/v1/ai-visibility/projects/${projectId}/metrics?model=gpt5`,
          '/ai-visibility/projects/{id}/metrics',
          400,
        )
      ).body.error.message,
    ).toContain('chatgpt');
    const reversed = await getValid(
      `/api/v1/ai-visibility/projects/${projectId}/metrics?dateFrom=2026-02-02&dateTo=2026-02-01`,
      '/ai-visibility/projects/{id}/metrics',
      400,
    );
    expect(reversed.body.error.param).toBe('dateFrom');
    expect(
      (
        await getValid(
          '/api/v1/ai-visibility/projects/prj_AAAAAAAAAAAAAAAAAAAA/metrics',
          '/ai-visibility/projects/{id}/metrics',
          404,
        )
      ).body.error.code,
    ).toBe('not_found');
  });

  it(
    'checks parameters before the project on every project ' + 'read (docs/api.md: parameters 400, then resource 404)',
    async () => {
      const unknown = '/api/v1/ai-visibility/projects/prj_AAAAAAAAAAAAAAAAAAAA';
      for (const [route, query] of [
        ['metrics', 'dateFrom=2026-02-02&dateTo=2026-02-01'],
        ['prompts', 'tag=' + 'x'.repeat(101)],
        ['sources', 'limit=0'],
        ['opportunities', 'limit=0'],
      ] as const) {
        const response = await t.get(`${unknown}/${route}?${query}`, key);
        expect(response.status, route).toBe(400);
        expect((await json(response)).error.code, route).toBe('invalid_parameter');
      }
    },
  );
});

describe('everything else under /api/v1', () => {
  it('answers unknown paths with 404 in the envelope', async () => {
    for (const path of [
      '/api/v1',
      '/api/v1/',
      '/api/v1/clients/',
      '/api/v1/nope',
      '/api/v1/reports/x/y/z',
      '/api/v1//clients',
    ]) {
      const response = await t.get(path, key);
      expect(response.status, path).toBe(404);
      expect((await json(response)).error.code).toBe('not_found');
    }
  });

  it('answers other methods with 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const response = await t.get('/api/v1/clients', key, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect((await json(response)).error.code).toBe('method_not_allowed');
    }
  });

  it('answers HEAD like GET, without a body', async () => {
    const head = await t.get('/api/v1/clients', key, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('ratelimit')).toBeTruthy();
    expect(await head.text()).toBe('');
    expect((await t.get('/api/v1/reports/rep_AAAAAAAAAAAAAAAAAAAA', key, { method: 'HEAD' })).status).toBe(404);
  });

  it('serves the API reference page and its script from the package', async () => {
    const page = await t.get('/api/v1/docs');
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('/api/v1/openapi.json');
    const script = await t.get(/src="(\/api\/v1\/docs\/scalar\.[^"]+\.js)"/.exec(text)![1]!);
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('declares bom on the CSV exports only: a boolean, off by default', async () => {
    const document = await json(await t.get('/api/v1/openapi.json'));
    for (const [path, item] of Object.entries<any>(document.paths)) {
      const bom = (item.get.parameters ?? []).find((parameter: { name: string }) => parameter.name === 'bom');
      if (path.endsWith('.csv'))
        expect(bom, path).toMatchObject({ in: 'query', required: false, schema: { type: 'boolean', default: false } });
      else expect(bom, path).toBeUndefined();
    }
  });
  it('is an OpenAPI 3.1 document of every path, without 3.0-only keywords', async () => {
    const response = await t.get('/api/v1/openapi.json');
    const text = await response.clone().text();
    const document = await json(response);
    expect(document.openapi).toMatch(/^3\.1\./);
    const data = [
      '/ai-visibility/projects',
      '/ai-visibility/projects/{id}/metrics',
      '/ai-visibility/projects/{id}/prompts',
      '/ai-visibility/projects/{id}/answers',
      '/ai-visibility/projects/{id}/answers/{answerId}',
      '/ai-visibility/projects/{id}/sources',
      '/ai-visibility/projects/{id}/search-queries',
      '/ai-visibility/projects/{id}/opportunities',
      '/clients',
      '/reports',
      '/reports/{id}',
      '/reports/{id}/data',
    ];
    const exports = ['metrics', 'answers', 'sources', 'search-queries', 'opportunities'].flatMap((name) =>
      ['csv', 'ndjson'].map((format) => `/ai-visibility/projects/{id}/${name}.${format}`),
    );
    expect(Object.keys(document.paths).sort()).toEqual([...data, ...exports].sort());
    expect(text).not.toContain('"nullable"');
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const dataParams = document.paths['/reports/{id}/data'].get.parameters;
    expect(dataParams.find((p: { name: string }) => p.name === 'datePreset').schema.enum).toContain('last_90_days');
  });
});

describe('unexpected failures', () => {
  it('answer 500 internal_error with a generic message, logged with the request id', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
    const broken = await createTestApp({}, { logger });
    const keyed = await createKeyedWorkspace(broken.database);
    await broken.get('/api/v1/clients', keyed.key.secret); // the key is cached from here on
    await broken.database.pool.end(); // every query now fails with an error no handler expects
    const response = await broken.get('/api/v1/clients', keyed.key.secret);
    const text = await response.text();
    const body = JSON.parse(text);
    expect(response.status).toBe(500);
    expect(body.error).toEqual({
      code: 'internal_error',
      message: expect.stringMatching(/^An unexpected error occurred/),
      requestId: expect.stringMatching(/^req_/),
    });
    expect(text).not.toMatch(/pool|at [\w.]+ \(|node_modules/i);
    expect(
      lines.map((line) => JSON.parse(line)).some((entry) => entry.requestId === body.error.requestId && entry.err),
    ).toBe(true);
    await broken.database.prisma.$disconnect();
  });
});

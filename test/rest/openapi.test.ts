// The published documents must satisfy the tools API users point at them: Redocly's
// recommended ruleset for the 3.1 and the 2.0 document, and openapi-typescript producing types
// that compile against a plain openapi-fetch client (no media type chosen) which types every data
// operation's answer as JSON, never `| string`, and then calls every endpoint of a running server.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { listen } from '../support/listen.js';
import { bin, compileStrictly, root, run } from '../support/project-tools.js';

const dir = path.join(root, 'test/.tmp', `openapi-${process.pid}`);

const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './v1.js';

// The plain client: each data operation declares JSON only, so its data is the JSON type.
const client = createClient<paths>({
  baseUrl: process.env.BASE_URL + '/api/v1',
  headers: { Authorization: 'Bearer ' + process.env.API_KEY },
});
// Compiles only when a data operation's answer cannot be a string.
type NotText<T> = string extends T ? false : true;
const json = <T,>(data: T, ok: NotText<T>) => ok;
const statuses: Record<string, number> = {};
const clients = await client.GET('/clients');
statuses.clients = clients.response.status;
const clientId: string | undefined = clients.data?.data[0]?.id;
const reports = await client.GET('/reports', { params: { query: { clientId } } });
statuses.reports = reports.response.status;
const reportId = reports.data!.data[0]!.id;
const report = await client.GET('/reports/{id}', { params: { path: { id: reportId } } });
statuses.report = report.response.status;
const widgets: number = report.data!.data.definition.widgets.length;
const data = await client.GET('/reports/{id}/data', {
  params: {
    path: { id: reportId },
    query: { datePreset: 'last_90_days', comparePreset: 'previous_period' },
  },
});
statuses.reportData = data.response.status;
const kpi: number | null | undefined = data.data?.data.kpis[0]?.value;
const projects = await client.GET('/ai-visibility/projects', {});
statuses.projects = projects.response.status;
const projectId = projects.data!.data[0]!.id;
const metrics = await client.GET('/ai-visibility/projects/{id}/metrics', {
  params: {
    path: { id: projectId },
    query: { model: 'chatgpt', dateFrom: new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10) },
  },
});
statuses.metrics = metrics.response.status;
const truncated: boolean | undefined = metrics.data?.meta.truncated;
const prompts = await client.GET('/ai-visibility/projects/{id}/prompts', {
  params: {
    path: { id: projectId },
    query: { includeArchived: true },
  },
});
statuses.prompts = prompts.response.status;
const answers = await client.GET('/ai-visibility/projects/{id}/answers', {
  params: {
    path: { id: projectId },
    query: { limit: 2, mentioned: true },
  },
});
statuses.answers = answers.response.status;
const nextCursor: string | null | undefined = answers.data?.meta.nextCursor;
const answerId = answers.data!.data[0]!.id;
const answer = await client.GET('/ai-visibility/projects/{id}/answers/{answerId}', {
  params: {
    path: { id: projectId, answerId },
  },
});
statuses.answer = answer.response.status;
const citedDomain: string | undefined = answer.data?.data.citations[0]?.domain;
const sources = await client.GET('/ai-visibility/projects/{id}/sources', {
  params: {
    path: { id: projectId },
    query: { groupBy: 'url', limit: 5 },
  },
});
statuses.sources = sources.response.status;
const owned: boolean | undefined = sources.data?.data.rows[0]?.owned;
const searchQueries = await client.GET('/ai-visibility/projects/{id}/search-queries', {
  params: {
    path: { id: projectId },
    query: { limit: 5 },
  },
});
statuses.searchQueries = searchQueries.response.status;
const opportunities = await client.GET('/ai-visibility/projects/{id}/opportunities', {
  params: {
    path: { id: projectId },
    query: { kind: 'pages' },
  },
});
statuses.opportunities = opportunities.response.status;
json(clients.data, true);
json(reports.data, true);
json(report.data, true);
json(data.data, true);
json(projects.data, true);
json(metrics.data, true);
json(prompts.data, true);
json(answers.data, true);
json(answer.data, true);
json(sources.data, true);
json(searchQueries.data, true);
json(opportunities.data, true);
// An export is an operation of its own: its answer is text, read as such.
const csv = await client.GET('/ai-visibility/projects/{id}/answers.csv', {
  params: {
    path: { id: projectId },
    query: { model: 'chatgpt' },
  },
  parseAs: 'text',
});
statuses.answersCsv = csv.response.status;
const csvHeader = typeof csv.data === 'string' ? csv.data.split('\\r\\n')[0]!.split(',')[0] : null;
const missing = await client.GET('/reports/{id}', { params: { path: { id: 'rep_AAAAAAAAAAAAAAAAAAAA' } } });
const code: string | undefined = missing.error?.error.code;
console.log(
  JSON.stringify({
    statuses,
    widgets,
    kpi: typeof kpi,
    truncated: typeof truncated,
    code,
    nextCursor: typeof nextCursor,
    citedDomain: typeof citedDomain,
    owned: typeof owned,
    csvHeader,
  }),
);
`;

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 10, clients: 1 });
  server = await listen(t.app);
  mkdirSync(dir, { recursive: true });
  const document = await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).text();
  writeFileSync(path.join(dir, 'openapi.json'), document);
  writeFileSync(path.join(dir, 'swagger.json'), await (await fetch(`${server.baseUrl}/api/v1/swagger.json`)).text());
});

afterAll(async () => {
  await server.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the OpenAPI document with real tools', () => {
  it.each(['openapi.json', 'swagger.json'])(
    '%s passes redocly lint with the recommended rules and no errors',
    async (file) => {
      const { stdout, stderr } = await run(
        bin('redocly'),
        ['lint', '--extends=recommended', '--format=json', path.join(dir, file)],
        { cwd: dir },
      );
      const report = JSON.parse(stdout) as { totals: { errors: number } };
      expect(report.totals.errors, stderr).toBe(0);
    },
    60_000,
  );

  it(
    'becomes types with openapi-typescript that compile ' + 'against an openapi-fetch client calling every endpoint',
    async () => {
      await run(bin('openapi-typescript'), [path.join(dir, 'openapi.json'), '-o', path.join(dir, 'v1.ts')]);
      writeFileSync(path.join(dir, 'client.mts'), CLIENT);
      await compileStrictly(path.join(dir, 'client.mts'), 'client');
      const { stdout } = await run(bin('tsx'), [path.join(dir, 'client.mts')], {
        env: { ...process.env, BASE_URL: server.baseUrl, API_KEY: key },
      });
      expect(JSON.parse(stdout)).toEqual({
        statuses: {
          clients: 200,
          reports: 200,
          report: 200,
          reportData: 200,
          projects: 200,
          metrics: 200,
          prompts: 200,
          answers: 200,
          answer: 200,
          sources: 200,
          searchQueries: 200,
          opportunities: 200,
          answersCsv: 200,
        },
        widgets: expect.any(Number),
        kpi: 'number',
        truncated: 'boolean',
        code: 'not_found',
        nextCursor: 'string',
        citedDomain: expect.stringMatching(/string|undefined/),
        owned: 'boolean',
        csvHeader: 'id',
      });
    },
    60_000,
  );
});

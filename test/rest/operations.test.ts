// v1 runs its routes' operations without leaf serialization (src/graphql/compile.ts): what a
// resolver gives leaves as it is. This holds every route to what /graphql's executor answers for
// the same operation — which passes every leaf through its scalar — on a seeded workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { print } from 'graphql';
import { seedWorkspace } from '../../src/demo/seed.js';
import { schema } from '../../src/graphql/schema.js';
import { REST_ROUTES } from '../../src/rest/routes.js';
import { v1Schema } from '../../src/rest/v1-schema.js';
import { routeOperation } from '../../src/rest/operations.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
let key: string;
let ids: { report: string; project: string; answer: string };

beforeAll(async () => {
  // Each route's full selection, sent to /graphql as a query of its own, counts every nested
  // list at its cap: over the default cost limit, which v1's fixed operations are not held to.
  t = await createTestApp({ GRAPHQL_MAX_COST: String(2 ** 40) });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 40, clients: 2 });
  const where = { where: { workspaceId: keyed.workspace.id } };
  const answer = await t.database.pool.query<{ id: string; project_id: string }>(
    'SELECT id, project_id FROM ai_answers WHERE workspace_id = $1 ORDER BY id LIMIT 1',
    [keyed.workspace.id],
  );
  ids = {
    report: (await t.database.prisma.report.findFirstOrThrow(where)).id,
    project: answer.rows[0]!.project_id,
    answer: answer.rows[0]!.id,
  };
});
afterAll(() => t.close());

async function graphql(query: string, variables: Record<string, unknown>) {
  const response = await t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return json(response);
}

describe('v1 routes without leaf serialization', () => {
  it('answer, on every route, exactly what /graphql answers for the same operation', async () => {
    const to = new Date().toISOString().slice(0, 10);
    const variablesOf: Record<string, Record<string, unknown>> = {
      '/clients': {},
      '/reports': {},
      '/reports/:id': { id: ids.report },
      '/reports/:id/data': { id: ids.report, datePreset: 'last_30_days', comparePreset: 'previous_period' },
      '/ai-visibility/projects': {},
      '/ai-visibility/projects/:id/metrics': { id: ids.project, dateFrom: '2026-01-01', dateTo: to },
      '/ai-visibility/projects/:id/prompts': { id: ids.project },
      '/ai-visibility/projects/:id/answers': { id: ids.project, limit: 5 },
      '/ai-visibility/projects/:id/answers/:answerId': { id: ids.project, answerId: ids.answer },
      '/ai-visibility/projects/:id/sources': { id: ids.project },
      '/ai-visibility/projects/:id/search-queries': { id: ids.project },
      '/ai-visibility/projects/:id/opportunities': { id: ids.project },
    };
    const v1 = v1Schema(schema);
    expect(Object.keys(variablesOf).sort()).toEqual(REST_ROUTES.map((route) => route.path).sort());
    for (const route of REST_ROUTES) {
      const variables = variablesOf[route.path]!;
      const path = route.path.replace(/:(\w+)/g, (_match, name: string) => String(variables[name]));
      const query = new URLSearchParams(
        Object.entries(variables)
          .filter(([name]) => !route.path.includes(`:${name}`))
          .map(([name, value]) => [name, String(value)]),
      );
      const response = await t.get(`/api/v1${path}${query.size ? `?${query}` : ''}`, key);
      expect(response.status, route.path).toBe(200);
      const served = await json(response);
      const graph = await graphql(print(routeOperation(v1, route)), variables);
      expect(graph.errors, route.path).toBeUndefined();
      // Compared as JSON text: a number that left as a string, or an enum as its internal value, differs.
      expect(JSON.stringify(served), route.path).toBe(JSON.stringify(graph.data[route.field]));
      expect(JSON.stringify(served).length, route.path).toBeGreaterThan(50);
    }
  });
});

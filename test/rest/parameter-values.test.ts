// What v1's query parameters mean, for every parameter of every route (read from the schema the
// server executes, so a new parameter is held to the same rules): an empty value is the
// parameter left out, each integer's declared bounds are exactly what the server accepts and
// its declared default is what an absent value means, and `locale` is a BCP 47 tag matched
// without regard to case — malformed is 400, well-formed but untracked is an empty answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { schema } from '../../src/graphql/schema.js';
import { boundsOf } from '../../src/graphql/bounded-int.js';
import { createProject } from '../../src/ai-visibility/index.js';
import { EXPORT_ROUTES, PAGING_ARGUMENTS, REST_ROUTES, type RestRoute } from '../../src/rest/routes.js';
import { v1Schema } from '../../src/rest/v1-schema.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

const TOKEN = 'p'.repeat(40);
let t: TestApp;
let key: string;
let ownerEmail: string;
let workspaceId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  ownerEmail = keyed.ownerEmail;
  workspaceId = keyed.workspace.id;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 20, clients: 2 });
  const answer = await t.database.pool.query<{ id: string; project_id: string }>(
    'SELECT id, project_id FROM ai_answers WHERE workspace_id = $1 ORDER BY id LIMIT 1',
    [keyed.workspace.id],
  );
  ids.id = answer.rows[0]!.project_id;
  ids.answerId = answer.rows[0]!.id;
  ids.report = (await t.database.prisma.report.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
}, 60_000);
afterAll(() => t.close());

const v1Fields = v1Schema(schema).getQueryType()!.getFields();
const pathOf = (route: RestRoute) =>
  `/api/v1${route.path.replace(/:(\w+)/g, (_match, name: string) => (route.path.startsWith('/reports') && name === 'id' ? ids.report! : ids[name]!))}`;
const queryArgs = (route: RestRoute) =>
  v1Fields[route.field]!.args.filter((arg) => !route.path.includes(`:${arg.name}`));

async function get(path: string) {
  const response = await t.get(path, key);
  return { status: response.status, body: await json(response) };
}

/** Every value of `name` anywhere in a JSON value. */
function valuesOf(value: unknown, name: string, into: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) valuesOf(item, name, into);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === name) into.push(inner);
      valuesOf(inner, name, into);
    }
  }
  return into;
}

describe('an empty query value', () => {
  it('reads as the parameter left out, on every route and for every parameter', async () => {
    let cases = 0;
    for (const route of REST_ROUTES) {
      const path = pathOf(route);
      const without = await get(path);
      expect(without.status, path).toBe(200);
      for (const arg of queryArgs(route)) {
        const empty = await get(`${path}?${arg.name}=`);
        expect(empty.status, `${route.path} ${arg.name}=`).toBe(200);
        expect(empty.body, `${route.path} ${arg.name}=`).toEqual(without.body);
        cases++;
      }
      // All at once, as a form sends every unset field.
      const all = queryArgs(route)
        .map((arg) => `${arg.name}=`)
        .join('&');
      if (all) expect((await get(`${path}?${all}`)).body, route.path).toEqual(without.body);
    }
    expect(cases).toBeGreaterThanOrEqual(45);
  }, 60_000);

  it('reads as absent on the export routes too', async () => {
    for (const route of EXPORT_ROUTES) {
      const path = pathOf(route);
      const filters = queryArgs(route).filter((arg) => !PAGING_ARGUMENTS.includes(arg.name));
      const without = await t.get(path, key);
      expect(without.status, path).toBe(200);
      const all = await t.get(`${path}?${filters.map((arg) => `${arg.name}=`).join('&')}`, key);
      expect(all.status, route.path).toBe(200);
      expect(await all.text(), route.path).toBe(await without.text());
    }
  }, 60_000);

  it('beside a value of the same parameter counts as no second value', async () => {
    const path = `/api/v1/ai-visibility/projects/${ids.id}/answers`;
    const { status, body } = await get(`${path}?limit=&limit=3`);
    expect(status).toBe(200);
    expect(body.data).toHaveLength(3);
  });
});

describe('integer parameters', () => {
  const bounded = () =>
    REST_ROUTES.flatMap((route) =>
      queryArgs(route).flatMap((arg) =>
        boundsOf(arg.extensions)
          ? [{ route, name: arg.name, bounds: boundsOf(arg.extensions)!, defaultValue: arg.defaultValue }]
          : [],
      ),
    );

  it('every Int a route takes declares bounds, and its GraphQL default is the declared one', () => {
    const ints = REST_ROUTES.flatMap((route) =>
      queryArgs(route)
        .filter((arg) => String(arg.type) === 'Int')
        .map((arg) => `${route.path} ${arg.name}`),
    );
    expect(bounded().map(({ route, name }) => `${route.path} ${name}`)).toEqual(ints);
    expect(ints.length).toBeGreaterThanOrEqual(6);
    for (const { bounds, defaultValue } of bounded()) expect(defaultValue).toBe(bounds.default);
  });

  it('are accepted exactly within their declared bounds, and absent mean their declared default', async () => {
    for (const { route, name, bounds } of bounded()) {
      const path = pathOf(route);
      for (const [value, status] of [
        [bounds.minimum, 200],
        [bounds.maximum, 200],
        [bounds.minimum - 1, 400],
        [bounds.maximum + 1, 400],
      ] as const) {
        const answer = await get(`${path}?${name}=${value}`);
        expect(answer.status, `${route.path} ${name}=${value}`).toBe(status);
        if (status === 400)
          expect(answer.body.error).toMatchObject({
            code: 'invalid_parameter',
            param: name,
            message: `${name} must be a whole number from ${bounds.minimum} to ${bounds.maximum}.`,
          });
      }
      expect((await get(`${path}?${name}=${bounds.default}`)).body, `${route.path} ${name}`).toEqual(
        (await get(path)).body,
      );
    }
  });
});

describe('locale', () => {
  const localeRoutes = () => REST_ROUTES.filter((route) => queryArgs(route).some((arg) => arg.name === 'locale'));

  it('is taken by every AI-visibility read of rows, metrics included', () => {
    expect(localeRoutes().map((route) => route.path)).toEqual(
      REST_ROUTES.filter((route) => /\/projects\/:id\/(?!answers\/:answerId)/.test(route.path)).map(
        (route) => route.path,
      ),
    );
    expect(localeRoutes().map((route) => route.path)).toContain('/ai-visibility/projects/:id/metrics');
  });

  it('is matched without regard to case, and filters every row and total', async () => {
    for (const route of localeRoutes()) {
      const path = pathOf(route);
      const canonical = await get(`${path}?locale=en-US`);
      expect(canonical.status, route.path).toBe(200);
      for (const spelling of ['en-us', 'EN-US', 'En-Us'])
        expect((await get(`${path}?locale=${spelling}`)).body, `${route.path} ${spelling}`).toEqual(canonical.body);
      const locales = new Set(valuesOf(canonical.body.data, 'locale'));
      if (route.field !== 'aiVisibilityPrompts' && route.field !== 'aiVisibilityOpportunities')
        expect([...locales], route.path).toEqual(['en-US']);
      else
        expect(
          [...locales].every((locale) => locale === 'en-US'),
          route.path,
        ).toBe(true);
    }
  });

  it('on metrics filters rows and totals (it was ignored before)', async () => {
    const path = pathOf(REST_ROUTES.find((route) => route.field === 'aiVisibilityMetrics')!);
    const all = await get(`${path}?limit=1000`);
    const german = await get(`${path}?locale=de-de&limit=1000`);
    expect(all.body.meta.truncated).toBe(false);
    expect(new Set(all.body.data.totals.map((total: { locale: string }) => total.locale)).size).toBeGreaterThan(1);
    expect(german.body.data.totals.map((total: { locale: string }) => total.locale)).toEqual(['de-DE']);
    expect(new Set(german.body.data.rows.map((row: { locale: string }) => row.locale))).toEqual(new Set(['de-DE']));
    expect(german.body.meta.total).toBe(
      all.body.data.rows.filter((row: { locale: string }) => row.locale === 'de-DE').length,
    );
  });

  it('well-formed but not tracked is an empty answer; malformed is a 400 naming locale', async () => {
    for (const route of localeRoutes()) {
      const path = pathOf(route);
      const unknown = await get(`${path}?locale=xx`);
      expect(unknown.status, route.path).toBe(200);
      expect(valuesOf(unknown.body.data, 'locale'), route.path).toEqual([]);
      // A prompt is not of a locale: the prompts are listed, each with no totals.
      if (route.field === 'aiVisibilityPrompts')
        expect(valuesOf(unknown.body.data, 'totals').flat(), route.path).toEqual([]);
      else if (unknown.body.meta.total !== undefined) expect(unknown.body.meta.total, route.path).toBe(0);
      for (const malformed of ['english', 'xx-', 'en_US']) {
        const refused = await get(`${path}?locale=${malformed}`);
        expect(refused.status, `${route.path} ${malformed}`).toBe(400);
        expect(refused.body.error, `${route.path} ${malformed}`).toMatchObject({
          code: 'invalid_parameter',
          param: 'locale',
        });
      }
    }
  });

  it('matches a locale stored in another case (a project made before locales were stored canonical)', async () => {
    const keyed = await createKeyedWorkspace(t.database);
    await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 2, clients: 1 });
    const tables = await t.database.pool.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.columns WHERE ' +
        "column_name = 'locale' AND table_schema = current_schema()",
    );
    for (const { table_name: table } of tables.rows)
      await t.database.pool.query(`UPDATE ${table} SET locale = lower(locale) WHERE workspace_id = $1`, [
        keyed.workspace.id,
      ]);
    const project = await t.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } });
    const base = `/api/v1/ai-visibility/projects/${project.id}`;
    const metrics = await t.get(`${base}/metrics?locale=en-US`, keyed.key.secret).then(json);
    expect(metrics.meta.total).toBeGreaterThan(0);
    expect(new Set(metrics.data.rows.map((row: { locale: string }) => row.locale))).toEqual(new Set(['en-us']));
    const answers = await t.get(`${base}/answers?locale=EN-US`, keyed.key.secret).then(json);
    expect(answers.meta.total).toBeGreaterThan(0);
  });

  it(
    'is stored in canonical case on a project, and a scan sent ' +
      "in another case is stored under the project's spelling",
    async () => {
      const project = await createProject(t.database.prisma, {
        workspaceId,
        actor: { email: ownerEmail },
        fields: { name: 'Cases', brand: 'Acme', models: ['chatgpt'], locales: ['en-us', 'ZH-hant-tw'] },
      });
      expect(project.locales).toEqual(['en-US', 'zh-Hant-TW']);
      expect(() =>
        createProject(t.database.prisma, {
          workspaceId,
          actor: { email: ownerEmail },
          fields: { name: 'Bad', brand: 'Acme', models: ['chatgpt'], locales: ['english'] },
        }),
      ).toThrow(/not a locale: english/);
      const line = {
        project: project.id,
        date: '2026-11-01',
        model: 'chatgpt',
        locale: 'EN-us',
        totalRuns: 4,
        visibilityCount: 1,
        mentionCount: 1,
        totalMentionCount: 2,
        positionedCount: 1,
        positionSum: 1,
        positiveCount: 1,
        neutralCount: 0,
        negativeCount: 0,
      };
      const ingested = await t.app.fetch(
        new Request('http://test.local/internal/ingest/scans', {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify(line),
        }),
      );
      expect(ingested.status, await ingested.clone().text()).toBe(200);
      const metrics = await get(
        `/api/v1/ai-visibility/projects/${project.id}/metrics?dateFrom=2026-11-01&dateTo=2026-11-01`,
      );
      expect(metrics.body.data.rows.map((row: { locale: string }) => row.locale)).toEqual(['en-US']);
    },
  );
});

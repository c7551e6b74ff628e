// An AI assistant refuses a tool answer over 100 000 characters (ChatGPT's GPT Actions do), so
// every v1 data operation asked with its default parameters answers within that on the data
// `npm start` seeds — every project, report and answer of it — and a list cut short says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { REST_ROUTES } from '../../src/rest/routes.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

const TOOL_LIMIT = 100_000;

let t: TestApp;
let key: string;
const ids = { report: [] as string[], project: [] as string[], answer: [] as [string, string][] };

beforeAll(async () => {
  t = await createTestApp();
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  // The first start's seed: its defaults (src/demo/first-start.ts passes none).
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id });
  const where = { where: { workspaceId: keyed.workspace.id } };
  ids.report = (await t.database.prisma.report.findMany(where)).map((report) => report.id);
  ids.project = (await t.database.prisma.aiProject.findMany(where)).map((project) => project.id);
  // The longest answer of each project.
  const answers = await t.database.pool.query<{ project_id: string; id: string }>(
    'SELECT DISTINCT ON (project_id) project_id, id FROM ai_answers ' +
      'WHERE workspace_id = $1 ORDER BY project_id, length(text) DESC',
    [keyed.workspace.id],
  );
  ids.answer = answers.rows.map((row) => [row.project_id, row.id]);
}, 120_000);
afterAll(() => t.close());

/** Each route's paths over every report, project and answer of the demo. */
function pathsOf(path: string): string[] {
  if (path.includes(':answerId'))
    return ids.answer.map(([project, answer]) => path.replace(':id', project).replace(':answerId', answer));
  if (path.startsWith('/reports/')) return ids.report.map((id) => path.replace(':id', id));
  if (path.startsWith('/ai-visibility/projects/')) return ids.project.map((id) => path.replace(':id', id));
  return [path];
}

describe('v1 with default parameters on the demo data', () => {
  it('answers every data operation in at most 100 000 characters, a capped list saying it is', async () => {
    const largest: Record<string, number> = {};
    for (const route of REST_ROUTES) {
      for (const path of pathsOf(route.path)) {
        const response = await t.get(`/api/v1${path}`, key);
        const text = await response.text();
        expect(response.status, path).toBe(200);
        expect(text.length, path).toBeLessThanOrEqual(TOOL_LIMIT);
        largest[route.path] = Math.max(largest[route.path] ?? 0, text.length);
        const { meta, data } = JSON.parse(text);
        if (typeof meta.total === 'number') {
          const returned = Array.isArray(data) ? data.length : (data.rows?.length ?? null);
          if (
            returned !== null &&
            !('nextCursor' in meta) &&
            !route.path.endsWith('/sources') &&
            !route.path.endsWith('/search-queries')
          ) {
            expect(meta.truncated, path).toBe(meta.total > returned);
          }
        }
      }
    }
    // The lists that grow with the data are cut by their defaults here, not by luck.
    const metrics = await json(await t.get(`/api/v1/ai-visibility/projects/${ids.project[0]}/metrics`, key));
    expect(metrics.meta).toEqual({ total: expect.any(Number), truncated: true });
    expect(metrics.data.rows).toHaveLength(50);
    expect(largest['/ai-visibility/projects/:id/metrics']).toBeGreaterThan(TOOL_LIMIT / 4);
    const prompts = await json(await t.get(`/api/v1/ai-visibility/projects/${ids.project[0]}/prompts`, key));
    expect(prompts.meta.truncated).toBe(true);
    expect(prompts.data).toHaveLength(10);
    const answers = await json(await t.get(`/api/v1/ai-visibility/projects/${ids.project[0]}/answers`, key));
    expect(answers.data).toHaveLength(20);
    expect(answers.meta.nextCursor).toEqual(expect.any(String));
  }, 120_000);
});

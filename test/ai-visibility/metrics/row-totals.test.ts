// A project whose rows all fit under the cap gets its totals added up from those rows; one whose
// rows are capped reads them in SQL. Both must answer the same totals, in the same order: locales,
// models and competitor names in code-point order (a UTF-16 sort would put U+1D538 before U+FB00).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';
import { createProject } from '../../support/projects.js';

const TOKEN = 'r'.repeat(40);
const NAMES = ['ﬀ Labs', '𝔸cme Rival', 'alpha', 'Émile', 'Zeta'];
let t: TestApp;
let key: string;
let projectId: string;

const counters = (seed: number) => ({
  totalRuns: 10 + seed,
  visibilityCount: 3 + (seed % 5),
  mentionCount: 5 + (seed % 5),
  totalMentionCount: 200,
  positionedCount: 2 + (seed % 5),
  positionSum: (2 + (seed % 5)) * 3,
  positiveCount: seed % 3,
  neutralCount: 1,
  negativeCount: seed % 2,
});

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  projectId = (
    await createProject(t.database, keyed.workspace.id, {
      name: 'Orders',
      competitors: NAMES,
      models: ['gemini', 'chatgpt', 'perplexity'],
      locales: ['en-US', 'de-DE', 'fr-FR'],
    })
  ).id;
  const lines = [];
  let seed = 0;
  for (const date of ['2026-10-01', '2026-10-02', '2026-10-03'])
    for (const model of ['gemini', 'chatgpt', 'perplexity'])
      for (const locale of ['fr-FR', 'en-US', 'de-DE']) {
        seed += 1;
        // Each scan reports a different subset of the competitors, some none.
        const competitors = NAMES.filter((_, index) => (seed + index) % 4 !== 0 && seed % 5 !== 0).map(
          (name, index) => ({
            name,
            visibilityCount: 1 + ((seed + index) % 5),
            mentionCount: 1 + ((seed + index) % 5) + ((seed * (index + 1)) % 4),
            positionedCount: (seed + index) % 5,
            positionSum: ((seed + index) % 5) * 2,
          }),
        );
        lines.push({ project: projectId, date, model, locale, ...counters(seed), competitors });
      }
  const response = await t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(lines),
    }),
  );
  expect(response.status).toBe(200);
});
afterAll(() => t.close());

const metrics = async (query: string, to = '2026-10-31') =>
  json(
    await t.get(`/api/v1/ai-visibility/projects/${projectId}/metrics?dateFrom=2026-10-01&dateTo=${to}&${query}`, key),
  );

describe('metrics totals from the rows or from SQL', () => {
  it('are the same whether the rows are all of the range or capped', async () => {
    const all = await metrics('limit=1000');
    expect(all.meta).toEqual({ total: 27, truncated: false });
    for (const limit of [1, 26, 27]) {
      const capped = await metrics(`limit=${limit}`);
      expect(capped.meta).toEqual({ total: 27, truncated: limit < 27 });
      expect(capped.data.totals).toEqual(all.data.totals);
    }
    expect(all.data.totals.map((x: { locale: string }) => x.locale)).toEqual(['de-DE', 'en-US', 'fr-FR']);
    for (const locale of all.data.totals) {
      expect(locale.byModel.map((x: { model: string }) => x.model)).toEqual(['chatgpt', 'gemini', 'perplexity']);
      expect(locale.competitors.map((x: { name: string }) => x.name)).toEqual([
        'Zeta',
        'alpha',
        'Émile',
        'ﬀ Labs',
        '𝔸cme Rival',
      ]);
    }
  });

  it('agree under the model and locale filters', async () => {
    for (const filter of ['model=gemini', 'locale=en-us', 'model=chatgpt&locale=fr-FR']) {
      const all = await metrics(`${filter}&limit=1000`);
      const capped = await metrics(`${filter}&limit=1`);
      expect(capped.meta.total).toBe(all.meta.total);
      expect(capped.data.totals).toEqual(all.data.totals);
    }
  });

  it('agree for a project with more scans than its models and locales suggest (read after the rows)', async () => {
    const all = await metrics('limit=1000', '2026-10-03');
    // 3 days of 1 model and 3 locales would be 9 rows: the totals are not read beside the rows.
    await t.database.prisma.aiProject.update({ where: { id: projectId }, data: { models: ['chatgpt'] } });
    const capped = await metrics('limit=20', '2026-10-03');
    expect(capped.meta).toEqual({ total: 27, truncated: true });
    expect(capped.data.totals).toEqual(all.data.totals);
  });
});

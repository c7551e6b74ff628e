// Sources on a database whose default collation is not C (a managed PostgreSQL's en-US): ties
// are still broken in code-point order, as documented ("B" < "a"), and the per-locale limit
// keeps the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../../src/ingest/service.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';
import { createTestDatabase } from '../../support/database.js';
import { quietRun } from '../../support/scan-lines.js';
import { createProject } from '../../support/projects.js';

let t: TestApp;
let key: string;
let projectId: string;

const rows = async (query: string) =>
  (
    await json(
      await t.get(
        `/api/v1/ai-visibility/projects/${projectId}/sources?dateFrom=2026-11-01&dateTo=2026-11-01&${query}`,
        key,
      ),
    )
  ).data.rows as { locale: string; url?: string }[];

beforeAll(async () => {
  t = await createTestApp({}, { url: await createTestDatabase({ icuLocale: 'en-US' }) });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  projectId = (
    await createProject(t.database, keyed.workspace.id, { name: 'P', models: ['chatgpt'], locales: ['en-US', 'en-gb'] })
  ).id;
  const run = quietRun({ citations: [{ url: 'https://acme.com/a' }, { url: 'https://acme.com/B' }] });
  const lines = ['en-US', 'en-gb'].map((locale) =>
    JSON.stringify({ project: projectId, date: '2026-11-01', model: 'chatgpt', locale, runs: [run] }),
  );
  expect(await ingest(t.database.pool, 'scans', lines.join('\n'))).toMatchObject({ accepted: 2 });
}, 60_000);
afterAll(() => t?.close());

describe('sources on a database collating en-US', () => {
  it('order locales and break ties by URL in code-point order, and the limit keeps the first', async () => {
    expect((await rows('groupBy=url')).map((row) => `${row.locale} ${row.url}`)).toEqual([
      'en-US https://acme.com/B',
      'en-US https://acme.com/a',
      'en-gb https://acme.com/B',
      'en-gb https://acme.com/a',
    ]);
    expect((await rows('groupBy=url&limit=1')).map((row) => `${row.locale} ${row.url}`)).toEqual([
      'en-US https://acme.com/B',
      'en-gb https://acme.com/B',
    ]);
  });
});

// One spelling per registrable domain (ASCII, as a URL parser writes the host), both spellings
// accepted in filters, and hosts without a registrable domain refused at ingestion with the line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  domainOwnership,
  normaliseDomain,
  registrableDomain,
  storedSpellings,
} from '../../../src/ai-visibility/sources/domains.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';
import { createProject } from '../../support/projects.js';

const ASCII = 'xn--e1afmkfd.xn--p1ai';

describe('registrable domains', () => {
  it('have one spelling, ASCII, whichever way the URL wrote the host', () => {
    for (const url of [
      'https://пример.рф/a',
      'https://www.Пример.РФ/b',
      `https://${ASCII}/c`,
      `http://blog.${ASCII.toUpperCase()}/`,
    ])
      expect(registrableDomain(url), url).toBe(ASCII);
    for (const typed of ['пример.рф', `https://www.${ASCII}/x`, ' Пример.рф '])
      expect(normaliseDomain(typed), typed).toBe(ASCII);
    expect(registrableDomain('https://münchen.de/')).toBe('xn--mnchen-3ya.de');
  });

  it(
    'are empty for hosts the public suffix list gives none (ingestion refuses them); an IP address ' +
      'stands for itself',
    () => {
      for (const url of [
        'https://co.uk/x',
        'http://com/',
        'http://localhost:3000/',
        'https://github.io/',
        'http://-a.com/',
      ])
        expect(registrableDomain(url), url).toBe('');
      expect(registrableDomain('http://192.0.2.1/x')).toBe('192.0.2.1');
      expect(normaliseDomain('co.uk')).toBeNull();
    },
  );

  it('are looked for in both spellings in stored rows, and own both', () => {
    expect(storedSpellings(ASCII)).toEqual([ASCII, 'пример.рф']);
    expect(storedSpellings('example.com')).toEqual(['example.com']);
    const ownership = domainOwnership(['пример.рф'], [{ name: 'Globex', domains: ['münchen.de'] }]);
    expect(ownership.owned.has(ASCII)).toBe(true);
    expect(ownership.competitorOf.get('xn--mnchen-3ya.de')).toBe('Globex');
  });
});

const TOKEN = 'd'.repeat(40);
let t: TestApp;
let key: string;
let projectId: string;

const run = (prompt: string, urls: string[]) => ({
  prompt,
  answer: 'Acme.',
  brandMentions: 1,
  totalMentions: 1,
  position: 1,
  sentiment: 'neutral',
  citations: urls.map((url) => ({ url })),
});
const ingest = (lines: object[]) =>
  t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines.map((line) => JSON.stringify(line)).join('\n'),
    }),
  );
const v1 = async (path: string) => json(await t.get(`/api/v1/ai-visibility/projects/${projectId}${path}`, key));

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  projectId = (
    await createProject(t.database, keyed.workspace.id, {
      name: 'IDN',
      models: ['chatgpt'],
      locales: ['ru-RU'],
      domains: ['пример.рф'],
    })
  ).id;
  const response = await ingest([
    {
      project: projectId,
      date: '2026-10-01',
      model: 'chatgpt',
      locale: 'ru-RU',
      runs: [run('one', ['https://пример.рф/a']), run('two', [`https://www.${ASCII}/b`])],
    },
  ]);
  expect(response.status).toBe(200);
});
afterAll(() => t.close());

describe('one source per registrable domain', () => {
  const range = 'dateFrom=2026-10-01&dateTo=2026-10-01';

  it('counts пример.рф and xn--e1afmkfd.xn--p1ai as one source, reported in ASCII and owned', async () => {
    const body = await v1(`/sources?${range}`);
    expect(body.data.rows).toEqual([
      expect.objectContaining({ domain: ASCII, citations: 2, answersCiting: 2, owned: true }),
    ]);
  });

  it('finds the answers with either spelling in domain=', async () => {
    for (const domain of ['пример.рф', ASCII, `www.${ASCII}`]) {
      expect(
        (await v1(`/answers?${range}&domain=${encodeURIComponent(domain)}`)).data
          .map((answer: { prompt: string }) => answer.prompt)
          .sort(),
        domain,
      ).toEqual(['one', 'two']);
    }
  });

  it('still finds a row stored in the Unicode spelling before the choice', async () => {
    await t.database.pool.query(
      "UPDATE ai_citations SET domain = 'пример.рф' WHERE project_id = $1 AND url LIKE 'https://пример%'",
      [projectId],
    );
    expect((await v1(`/answers?${range}&domain=${ASCII}`)).data).toHaveLength(2);
  });

  it(
    "keeps the brand's pages and sources under owned=true whichever spelling the project lists or a " + 'row holds',
    async () => {
      const read = { ...run('three', []), retrieved: [{ url: 'https://пример.рф/p' }] };
      expect(
        (await ingest([{ project: projectId, date: '2026-10-04', model: 'chatgpt', locale: 'ru-RU', runs: [read] }]))
          .status,
      ).toBe(200);
      const range4 = 'dateFrom=2026-10-01&dateTo=2026-10-04';
      expect((await v1(`/sources?${range4}&owned=true`)).data.rows).toEqual([
        expect.objectContaining({ domain: ASCII, citations: 2, retrievals: 1, owned: true }),
      ]);
      expect(
        (await v1(`/sources?${range4}&owned=true&groupBy=url`)).data.rows.map((row: { url: string }) => row.url),
      ).toContain(`https://${ASCII}/p`);
      const ownedPages = async () => (await v1(`/opportunities?${range4}&kind=pages`)).data.pages;
      expect(await ownedPages()).toEqual([
        expect.objectContaining({ url: `https://${ASCII}/p`, retrievedNotCited: 1 }),
      ]);
      // A page total in the Unicode spelling, as migration 0014 carried over a page read before the choice,
      // while the project lists ASCII.
      await t.database.pool.query("UPDATE ai_page_totals SET domain = 'пример.рф' WHERE project_id = $1", [projectId]);
      await t.database.pool.query('UPDATE ai_projects SET domains = $2 WHERE id = $1', [projectId, [ASCII]]);
      expect(await ownedPages()).toEqual([
        expect.objectContaining({ url: `https://${ASCII}/p`, retrievedNotCited: 1 }),
      ]);
      await t.database.pool.query("UPDATE ai_projects SET domains = '{пример.рф}' WHERE id = $1", [projectId]);
    },
  );

  it('refuses at ingestion a host without a registrable domain, naming the line and the field', async () => {
    const response = await ingest([
      {
        project: projectId,
        date: '2026-10-02',
        model: 'chatgpt',
        locale: 'ru-RU',
        runs: [run('one', ['https://example.com/'])],
      },
      {
        project: projectId,
        date: '2026-10-03',
        model: 'chatgpt',
        locale: 'ru-RU',
        runs: [run('one', ['https://example.com/', 'https://co.uk/x'])],
      },
    ]);
    const body = await json(response);
    expect(response.status).toBe(400);
    expect(body.error.lines).toEqual([
      {
        line: 2,
        message:
          'runs.0.citations.1.url: host "co.uk" has no registrable domain in the public suffix list ' +
          'and is no IP address',
      },
    ]);
  });
});

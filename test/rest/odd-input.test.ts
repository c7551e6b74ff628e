// Issue 39, odd input: dates outside 0001–9999 and text with NUL or bytes that are not UTF-8 are
// a 400 naming the field at every door (v1, GraphQL, ingest), never a 500 from PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { createProject } from '../support/projects.js';

const TOKEN = 'o'.repeat(40);
let t: TestApp;
let key: string;
let projectId: string;

const run = (prompt: string, answer = 'Acme is fine.') => ({
  prompt,
  topic: 'tools',
  tags: ['a'],
  answer,
  brandMentions: 1,
  totalMentions: 1,
  position: 1,
  sentiment: 'positive',
  citations: [{ url: 'https://example.com/x' }],
});
const scanLine = (date: string, runs = [run('best tool?')]) => ({
  project: projectId,
  date,
  model: 'chatgpt',
  locale: 'en-US',
  runs,
});
const ingest = (body: BodyInit, query = '') =>
  t.app.fetch(
    new Request(`http://test.local/internal/ingest/scans${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body,
    }),
  );
const graphql = (query: string, variables: Record<string, unknown> = {}) =>
  t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
const v1 = (path: string) => t.get(`/api/v1/ai-visibility/projects/${projectId}${path}`, key);

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN, RATE_LIMIT_AGENCY: '1000000/1000000' });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  projectId = (
    await createProject(t.database, keyed.workspace.id, { name: 'Odd', models: ['chatgpt'], locales: ['en-US'] })
  ).id;
  expect(
    (await ingest([scanLine('2026-10-01'), scanLine('0001-01-01')].map((line) => JSON.stringify(line)).join('\n')))
      .status,
  ).toBe(200);
});
afterAll(() => t.close());

describe('dates', () => {
  it.each(['/metrics', '/answers', '/sources', '/prompts'])(
    '%s refuses year 0000 naming dateFrom and the range',
    async (path) => {
      const response = await v1(`${path}?dateFrom=0000-01-01`);
      const body = await json(response);
      expect(response.status).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_parameter', param: 'dateFrom' });
      expect(body.error.message).toMatch(/0001-01-01 to 9999-12-31/);
    },
  );

  it('reads years 0001–0099 as they are: dateTo=0001-01-15 alone answers the days from 0001-01-01', async () => {
    const response = await v1('/metrics?dateTo=0001-01-15');
    const body = await json(response);
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.data.range).toEqual({ from: '0001-01-01', to: '0001-01-15' });
    expect(body.data.rows.map((row: { date: string }) => row.date)).toEqual(['0001-01-01']);
  });

  it('GraphQL refuses year 0000 in a literal and in a variable', async () => {
    for (const response of [
      await graphql(`{ aiVisibilityMetrics(id: "${projectId}", dateFrom: "0000-01-01") { data { range { from } } } }`),
      await graphql(
        'query($d: Date) { aiVisibilityMetrics(id: "' + projectId + '", dateFrom: $d) { data { range { from } } } }',
        { d: '0000-01-01' },
      ),
    ]) {
      const body = await json(response);
      expect(response.status, JSON.stringify(body)).toBeLessThan(500);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].message).toMatch(/0001-01-01 to 9999-12-31/);
    }
  });

  it('ingest refuses year 0000 naming the line and the field', async () => {
    const response = await ingest(
      [scanLine('2026-10-02'), scanLine('0000-06-01')].map((line) => JSON.stringify(line)).join('\n'),
    );
    const body = await json(response);
    expect(response.status).toBe(400);
    expect(body.error.lines).toEqual([
      {
        line: 2,
        message: expect.stringMatching(/^date: must be a date of the form YYYY-MM-DD from 0001-01-01 to 9999-12-31/),
      },
    ]);
  });
});

describe('text', () => {
  const cursorWithNul = Buffer.from(JSON.stringify(['2026-10-01', 'ans_\u0000'])).toString('base64url');
  it.each([
    ['/answers?locale=en%00US', 'locale'],
    ['/prompts?topic=%00', 'topic'],
    ['/prompts?tag=a%00', 'tag'],
    ['/answers?cursor=%00', 'cursor'],
    [`/answers?cursor=${cursorWithNul}`, 'cursor'],
    ['/answers?domain=exa%00mple.com', 'domain'],
    ['/answers?locale=%FF', 'locale'],
    ['/sources?locale=%ED%A0%80', 'locale'],
    ['/metrics?model=%C3', 'model'],
  ])('v1 %s → 400 naming %s', async (path, param) => {
    const response = await v1(path);
    const body = await json(response);
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', param });
  });

  it('GraphQL refuses NUL and lone surrogates in literals and variables, naming the argument', async () => {
    const literal = await graphql(
      `{ aiVisibilityAnswers(id: "${projectId}", locale: "en\\u0000US") { meta { total } } }`,
    );
    const literalBody = await json(literal);
    expect(literal.status, JSON.stringify(literalBody)).toBe(400);
    expect(literalBody.errors[0].extensions).toMatchObject({ code: 'invalid_parameter', param: 'locale' });
    const variable = await graphql(
      'query($l: String) { aiVisibilityAnswers(id: "' + projectId + '", locale: $l) { meta { total } } }',
      { l: 'en\uD800' },
    );
    const variableBody = await json(variable);
    expect(variable.status, JSON.stringify(variableBody)).toBe(400);
    expect(variableBody.errors[0].extensions).toMatchObject({ code: 'invalid_parameter', param: '$l' });
  });

  it('ingest names the line and the field of a NUL; skipInvalid keeps the other lines', async () => {
    const lines = [scanLine('2026-10-03'), scanLine('2026-10-04', [run('other?', 'Acme\u0000')])]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const refused = await json(await ingest(lines));
    expect(refused.error.lines).toEqual([
      { line: 2, message: expect.stringMatching(/^runs\[0\]\.answer: contains a NUL/) },
    ]);
    const kept = await json(await ingest(lines, '?skipInvalid=true'));
    expect(kept.data).toMatchObject({ accepted: 1, rejected: 1, problems: [{ line: 2 }] });
  });

  it('ingest refuses a query parameter it does not take, and skipInvalid twice, before writing anything', async () => {
    const line = JSON.stringify(scanLine('2026-10-07'));
    for (const [query, param, message] of [
      ['?dryRun=true', 'dryRun', '"dryRun" is not a parameter here'],
      ['?skipInvalid=true&skipInvalid=false', 'skipInvalid', 'only once'],
      ['?=1', '', 'A parameter without a name is not'],
      [`?${'x'.repeat(5000)}=1`, `${'x'.repeat(64)}…`, `"${'x'.repeat(64)}…" is not`],
      // Cut by characters: never half an emoji (a lone surrogate strict JSON readers refuse).
      [`?${'a'.repeat(63)}%F0%9F%98%80%F0%9F%98%80=1`, `${'a'.repeat(63)}😀…`, `"${'a'.repeat(63)}😀…" is not`],
    ]) {
      const response = await ingest(line, query);
      expect(response.status, query).toBe(400);
      const { error } = await json(response);
      expect(error.code).toBe('invalid_parameter');
      // An empty name is not repeated as `param`.
      expect(error.param).toBe(param || undefined);
      expect(error.message).toContain(message);
      expect(error.message.length).toBeLessThan(200);
    }
    const { rows } = await t.database.pool.query(
      'SELECT count(*)::int AS n FROM scans WHERE project_id = $1 AND date = $2',
      [projectId, '2026-10-07'],
    );
    expect(rows[0].n).toBe(0);
  });

  it('ingest names a line whose bytes are not UTF-8', async () => {
    const good = Buffer.from(`${JSON.stringify(scanLine('2026-10-05'))}\n`);
    const bad = Buffer.from(
      JSON.stringify(scanLine('2026-10-06', [run('bad bytes?', 'XX')])).replace('XX', '\u0000\u0000'),
    );
    bad[bad.indexOf(0)] = 0xc3;
    bad[bad.indexOf(0)] = 0x28;
    const response = await ingest(Buffer.concat([good, bad]));
    const body = await json(response);
    expect(response.status).toBe(400);
    expect(body.error.lines).toEqual([{ line: 2, message: expect.stringMatching(/not valid UTF-8/) }]);
  });
});

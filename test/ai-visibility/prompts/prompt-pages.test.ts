// A project's prompts come in keyset pages, oldest first, like its answers: a page of `limit`,
// meta.total over every page and meta.nextCursor bound to the filters that choose the prompts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../../support/app.js';

let t: TestApp;
let key: string;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 2, clients: 1 });
  const project = await t.database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } });
  base = `/api/v1/ai-visibility/projects/${project.id}/prompts`;
});
afterAll(() => t.close());

const get = async (query: string) => {
  const response = await t.get(`${base}?${query}`, key);
  return { status: response.status, body: await json(response) };
};

describe('prompt pages', () => {
  it('visit every prompt once, oldest first, with the total on every page', async () => {
    const all = await get('limit=500');
    expect(all.body.meta).toEqual({ total: all.body.data.length, truncated: false, nextCursor: null });
    expect(all.body.data.length).toBeGreaterThan(10);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: any } = await get(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.meta.total).toBe(all.body.data.length);
      expect(page.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.data.map((prompt: { id: string }) => prompt.id));
      cursor = page.body.meta.nextCursor;
      expect(page.body.meta.truncated).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(all.body.data.map((prompt: { id: string }) => prompt.id));
  });

  it('default to 10 and say more follow', async () => {
    const first = await get('');
    expect(first.body.data).toHaveLength(10);
    expect(first.body.meta).toMatchObject({ truncated: true, nextCursor: expect.any(String) });
  });

  it("refuse a cursor made for other prompt filters or another list's, and a forged one", async () => {
    const { body } = await get('limit=2');
    expect((await get(`limit=2&cursor=${body.meta.nextCursor}&includeArchived=true`)).body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'cursor',
    });
    expect((await get(`limit=2&cursor=${body.meta.nextCursor}&locale=de-DE`)).status).toBe(200);
    expect((await get('cursor=bm90LWEtY3Vyc29y')).body.error).toMatchObject({
      code: 'invalid_parameter',
      param: 'cursor',
    });
  });
});

// Search by name through GraphQL: every kind, literal matching, scopes respected, and nothing of
// another workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
let mine: Awaited<ReturnType<typeof createKeyedWorkspace>>;
let theirs: Awaited<ReturnType<typeof createKeyedWorkspace>>;

const search = async (key: string, query: string, limit?: number) => {
  const response = await t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        query: 'query($q: String!, $l: Int) { search(query: $q, limit: $l) { kind id name parentId } }',
        variables: { q: query, l: limit },
      }),
    }),
  );
  return json(response);
};

beforeAll(async () => {
  t = await createTestApp();
  mine = await createKeyedWorkspace(t.database);
  theirs = await createKeyedWorkspace(t.database);
  for (const keyed of [mine, theirs])
    await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: keyed.workspace.id, days: 3, clients: 2 });
});
afterAll(() => t.close());

describe('search', () => {
  it(
    'finds clients, reports, projects and prompts by part of their name, ' +
      "case-insensitively, only in the caller's workspace",
    async () => {
      const body = await search(mine.key.secret, 'NORTHWIND');
      const kinds = body.data.search.map((hit: { kind: string }) => hit.kind);
      expect(kinds).toEqual(expect.arrayContaining(['client', 'report', 'project']));
      const client = body.data.search.find((hit: { kind: string }) => hit.kind === 'client');
      expect(await t.database.prisma.client.findUnique({ where: { id: client.id } })).toMatchObject({
        workspaceId: mine.workspace.id,
        name: 'Northwind Outdoor',
      });
      const prompts = (await search(mine.key.secret, 'outdoor gear shop')).data.search.filter(
        (hit: { kind: string }) => hit.kind === 'prompt',
      );
      expect(prompts.length).toBeGreaterThan(0);
      const theirIds = new Set(
        (await search(theirs.key.secret, 'northwind')).data.search.map((hit: { id: string }) => hit.id),
      );
      expect(body.data.search.some((hit: { id: string }) => theirIds.has(hit.id))).toBe(false);
    },
  );

  it('matches % and _ literally, caps each kind, and refuses short queries and bad limits', async () => {
    expect((await search(mine.key.secret, '%%')).data.search).toEqual([]);
    expect((await search(mine.key.secret, 'a_', 1)).data.search.length).toBeLessThanOrEqual(4);
    const capped = await search(mine.key.secret, 'e', 1);
    expect(capped.errors[0].extensions.code).toBe('invalid_parameter');
    const few = (await search(mine.key.secret, 'th', 1)).data.search;
    for (const kind of ['client', 'report', 'project', 'prompt'])
      expect(few.filter((hit: { kind: string }) => hit.kind === kind).length).toBeLessThanOrEqual(1);
    expect((await search(mine.key.secret, 'north', 51)).errors[0].extensions.code).toBe('invalid_parameter');
  });

  it('shows only the kinds the key may read', async () => {
    const reportsOnly = await createApiKey(t.database.prisma, {
      workspaceId: mine.workspace.id,
      name: 'reports only',
      scopes: ['reports:read'],
      actor: { email: null },
    });
    const kinds = new Set(
      (await search(reportsOnly.secret, 'northwind')).data.search.map((hit: { kind: string }) => hit.kind),
    );
    expect([...kinds]).toEqual(['report']);
  });
});

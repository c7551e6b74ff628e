// Connection cursors (scans, signals, a prompt's runs) over HTTP with seeded workspaces: a cursor
// pages only the connection, parent, workspace and filters that returned it; any other is
// refused with invalid_parameter naming `after`, as docs/graphql.md says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { postGraphQL } from '../support/graphql.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const graphql = (key: string, query: string, variables: Record<string, unknown>) =>
  postGraphQL(t.app, key, query, variables);

async function seeded() {
  const { workspace, key } = await createKeyedWorkspace(t.database);
  await seedWorkspace(t.database.prisma, t.database.pool, { workspaceId: workspace.id, days: 4, clients: 1 });
  const [project] = await t.database.prisma.aiProject.findMany({ where: { workspaceId: workspace.id } });
  return { key: key.secret, projectId: project!.id };
}

const PAGES =
  'query($id: ID!, $after: String, $model: AiModel) { node(id: $id) { ... on AiVisibilityProject { ' +
  'scans(first: 2, after: $after, model: $model) { pageInfo { hasNextPage endCursor } edges { cursor node { id } } } ' +
  'signals(first: 1) { pageInfo { endCursor } } ' +
  'prompts(limit: 1) { data { runs(first: 1) { pageInfo { endCursor } } } } } } }';
const SCANS =
  'query($id: ID!, $after: String, $model: AiModel) { node(id: $id) { ... on AiVisibilityProject { ' +
  'scans(first: 2, after: $after, model: $model) { nodes { id } } } } }';

type Seeded = Awaited<ReturnType<typeof seeded>>;
let ours: Seeded;
let theirs: Seeded;
let page: any;
beforeAll(async () => {
  [ours, theirs] = [await seeded(), await seeded()];
  const body = await graphql(ours.key, PAGES, { id: ours.projectId });
  expect(body.errors).toBeUndefined();
  page = body.data.node;
});

const refusal = async (who: Seeded, after: string, variables: Record<string, unknown> = {}) => {
  const body = await graphql(who.key, SCANS, { id: who.projectId, after, ...variables });
  expect(body.data?.node ?? null).toBeNull();
  return body.errors?.[0];
};

describe('connection cursors', () => {
  it('page on from their own endCursor and edge cursors', async () => {
    expect(page.scans.pageInfo.hasNextPage).toBe(true);
    expect(page.scans.edges.at(-1).cursor).toBe(page.scans.pageInfo.endCursor);
    const next = await graphql(ours.key, SCANS, { id: ours.projectId, after: page.scans.pageInfo.endCursor });
    expect(next.errors).toBeUndefined();
    const ids = page.scans.edges.map((edge: any) => edge.node.id);
    expect(next.data.node.scans.nodes).toHaveLength(2);
    expect(next.data.node.scans.nodes.some((scan: any) => ids.includes(scan.id))).toBe(false);
  });

  it("refuse another workspace's cursor with invalid_parameter naming after", async () => {
    const error = await refusal(theirs, page.scans.pageInfo.endCursor);
    expect(error.extensions).toEqual({ code: 'invalid_parameter', param: 'after' });
    expect(error.message).toMatch(/^after was returned for another connection, parent, workspace or set of filters/);
  });

  it("refuse another connection's cursor, and the same connection's under other filters", async () => {
    for (const foreign of [page.signals.pageInfo.endCursor, page.prompts.data[0].runs.pageInfo.endCursor]) {
      expect(foreign).toEqual(expect.any(String));
      expect((await refusal(ours, foreign)).extensions).toEqual({ code: 'invalid_parameter', param: 'after' });
    }
    const refiltered = await refusal(ours, page.scans.pageInfo.endCursor, { model: 'gemini' });
    expect(refiltered.extensions).toEqual({ code: 'invalid_parameter', param: 'after' });
  });

  it('bind a filter sent as null as an omitted one, either way round', async () => {
    const scans = (model: string) =>
      'query($id: ID!, $after: String) { node(id: $id) { ... on AiVisibilityProject { ' +
      `scans(first: 2, after: $after${model}) { pageInfo { endCursor } nodes { id } } } } }`;
    for (const [first, then] of [
      ['', ', model: null'],
      [', model: null', ''],
    ] as const) {
      const start = await graphql(ours.key, scans(first), { id: ours.projectId });
      const after = start.data.node.scans.pageInfo.endCursor;
      const next = await graphql(ours.key, scans(then), { id: ours.projectId, after });
      expect(next.errors).toBeUndefined();
      expect(next.data.node.scans.nodes).toHaveLength(2);
    }
  });

  it('refuse forged and garbled cursors', async () => {
    const [date, id] = JSON.parse(Buffer.from(page.scans.pageInfo.endCursor, 'base64url').toString('utf8'));
    const forged = [
      Buffer.from(JSON.stringify([date, id])).toString('base64url'),
      Buffer.from(JSON.stringify([date, id, 'AAAAAAAAAAAAAAAA'])).toString('base64url'),
      Buffer.from(JSON.stringify(['not a date', id, 'x'])).toString('base64url'),
      'garbage!',
    ];
    for (const after of forged) {
      const error = await refusal(ours, after);
      expect(error.extensions, after).toEqual({ code: 'invalid_parameter', param: 'after' });
    }
  });
});

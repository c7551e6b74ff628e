import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';

describe('clients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers only with the caller's workspace over GraphQL", async () => {
    const mine = await createKeyedWorkspace(t.database);
    const theirs = await createKeyedWorkspace(t.database);
    await t.database.prisma.client.create({
      data: { id: newId('client'), workspaceId: mine.workspace.id, name: 'Mine' },
    });
    await t.database.prisma.client.create({
      data: { id: newId('client'), workspaceId: theirs.workspace.id, name: 'Theirs' },
    });
    const response = await t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${mine.key.secret}` },
        body: JSON.stringify({ query: '{ clients { data { name } meta { total truncated } } }' }),
      }),
    );
    const body = await json(response);
    expect(body).toEqual({ data: { clients: { data: [{ name: 'Mine' }], meta: { total: 1, truncated: false } } } });
  });

  it('lists 50 clients with providers and report counts in a bounded number of SQL statements', async () => {
    const { workspace, key } = await createKeyedWorkspace(t.database);
    for (let i = 0; i < 50; i++) {
      const client = await t.database.prisma.client.create({
        data: { id: newId('client'), workspaceId: workspace.id, name: `Client ${i}` },
      });
      await t.database.prisma.providerConnection.create({
        data: {
          id: newId('connection'),
          workspaceId: workspace.id,
          clientId: client.id,
          provider: 'google_ads',
          externalAccountId: `acct-${i}`,
        },
      });
      await t.database.prisma.report.create({
        data: { id: newId('report'), workspaceId: workspace.id, clientId: client.id, name: `R${i}`, definition: {} },
      });
    }
    await t.get('/api/v1/clients', key.secret); // warm the key cache
    let body: { data: { reportCount: number; connectedProviders: string[] }[] } = { data: [] };
    const statements = await statementsDuring(async () => {
      body = await json(await t.get('/api/v1/clients', key.secret));
    });
    expect(body.data).toHaveLength(50);
    expect(
      body.data.every(
        (c: { reportCount: number; connectedProviders: string[] }) =>
          c.reportCount === 1 && c.connectedProviders[0] === 'google_ads',
      ),
    ).toBe(true);
    expect(statements.length).toBeLessThanOrEqual(4);
  });
});

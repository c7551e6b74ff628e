// A tool call with arguments GraphQL cannot take is the caller's mistake: an invalid_parameter
// naming the argument (with the scalar's own reason; a forged cursor too), and nothing logged at error level.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createLogger } from '../../src/config/logger.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { listen } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { MAX_LIST_ITEMS } from '../../src/mcp/tools/tool-arguments.js';

const logLines: { level: number; err?: { stack?: string } }[] = [];
let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let client: Client;
const ids = { client: '', project: '' };

beforeAll(async () => {
  const destination = new Writable({
    write: (chunk, _encoding, done) => (logLines.push(JSON.parse(String(chunk))), done()),
  });
  t = await createTestApp({}, { logger: createLogger({ LOG_LEVEL: 'info' }, destination) });
  server = await listen(t.app);
  const db = t.database;
  const keyed = await createKeyedWorkspace(db);
  await seedWorkspace(db.prisma, db.pool, { workspaceId: keyed.workspace.id, days: 3, clients: 1 });
  ids.client = (await db.prisma.client.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
  ids.project = (await db.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
  await personWithPassword(db, { email: keyed.ownerEmail });
  const provider = new TestOAuthProvider({
    cookie: (await signIn(t.app, keyed.ownerEmail)).cookie,
    workspaceId: keyed.workspace.id,
  });
  client = await connectMcp(server.baseUrl, provider, '/mcp/x/all');
}, 60_000);
afterAll(async () => {
  await client?.close();
  await server?.close();
  await t?.close();
});

const errorOf = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as { text: string }[])[0]!.text).error;
};

describe('tool arguments of the wrong type', () => {
  it('answer invalid_parameter naming the argument and log nothing at error level', async () => {
    logLines.length = 0;
    expect(await errorOf('query_metrics', { id: ids.client, provider: 5, metrics: 'x', dimension: 3 })).toMatchObject({
      code: 'invalid_parameter',
      param: 'provider',
    });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.level >= 50 || line.err?.stack)).toEqual([]);
  });

  it("a required argument left out is named in the tool's words, not GraphQL's", async () => {
    expect(
      await errorOf('query_metrics', { id: ids.client, provider: 'google_ads', metrics: ['clicks'] }),
    ).toMatchObject({ code: 'invalid_parameter', param: 'dimension', message: 'Argument "dimension" is required.' });
  });

  it('a list argument past its item cap is refused before GraphQL coerces a single item', async () => {
    const metrics = new Array(MAX_LIST_ITEMS * 900).fill(null);
    expect(await errorOf('query_metrics', { id: ids.client, provider: 'ga4', metrics })).toEqual({
      code: 'invalid_parameter',
      param: 'metrics',
      message: `Argument "metrics" lists more than ${MAX_LIST_ITEMS} items.`,
    });
    const tools = await client.listTools();
    const schema = tools.tools.find((tool) => tool.name === 'query_metrics')!.inputSchema as {
      properties: Record<string, { maxItems?: number }>;
    };
    expect(schema.properties.metrics!.maxItems).toBe(MAX_LIST_ITEMS);
  });

  it("a date out of range names the field and the range, in v1's words", async () => {
    logLines.length = 0;
    expect(await errorOf('get_ai_visibility_metrics', { id: ids.project, dateFrom: '0000-01-01' })).toEqual({
      code: 'invalid_parameter',
      param: 'dateFrom',
      message:
        'Invalid dateFrom: "0000-01-01" must be a date of the form YYYY-MM-DD from 0001-01-01 ' +
        'to 9999-12-31 (year 0000 does not exist).',
    });
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it(
    'a forged list_signals cursor whose sort value PostgreSQL would refuse is invalid_parameter ' +
      'on after, not internal_error',
    async () => {
      logLines.length = 0;
      for (const sortValue of ['0', '99999', '+275760-09-13T00:00:00.000Z', 'Tue, 01 Jan 0000 00:00:00 GMT']) {
        const after = Buffer.from(JSON.stringify([sortValue, 'sig_forged'])).toString('base64url');
        expect(await errorOf('list_signals', { id: ids.project, after }), sortValue).toMatchObject({
          code: 'invalid_parameter',
          param: 'after',
        });
      }
      expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
    },
  );
});

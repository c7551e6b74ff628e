// The direct path for 2025-era `tools/call` (src/mcp/direct-tool-calls.ts): every call it takes
// is answered exactly as the SDK's own server answers it (status, content type, body bytes),
// it takes only what it can answer so, and it really leaves the SDK's server out.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isLegacyRequest, Server } from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { directToolCallOf } from '../../src/mcp/protocol/direct-tool-calls.js';

// Switches the direct path off for the SDK's answer to compare with.
const path = vi.hoisted(() => ({ direct: true }));
vi.mock('../../src/mcp/protocol/direct-tool-calls.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/mcp/protocol/direct-tool-calls.js')>();
  return {
    ...real,
    directToolCallOf: (...args: Parameters<typeof real.directToolCallOf>) =>
      path.direct ? real.directToolCallOf(...args) : null,
  };
});

const served = useListeningApp();
let client: Client;
let token: string;
const ids = { report: '', project: '', answer: '' };

beforeAll(async () => {
  const db = served.t.database;
  const keyed = await createKeyedWorkspace(db);
  await seedWorkspace(db.prisma, db.pool, { workspaceId: keyed.workspace.id, days: 10, clients: 2 });
  ids.report = (await db.prisma.report.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
  ids.project = (await db.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id } })).id;
  ids.answer = (await db.prisma.aiAnswer.findFirstOrThrow({ where: { projectId: ids.project } })).id;
  await personWithPassword(db, { email: keyed.ownerEmail });
  const provider = new TestOAuthProvider({
    cookie: (await signIn(served.t.app, keyed.ownerEmail)).cookie,
    workspaceId: keyed.workspace.id,
  });
  client = await connectMcp(served.baseUrl, provider, '/mcp/x/all');
  token = provider.saved!.access_token;
}, 60_000);
afterAll(async () => {
  await client?.close();
});

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

async function post(body: unknown, headers: Record<string, string> = HEADERS) {
  const response = await fetch(`${served.baseUrl}/mcp/x/all`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** The same message through the direct path and through the SDK's server. */
async function bothWays(body: unknown) {
  path.direct = true;
  const direct = await post(body);
  path.direct = false;
  try {
    return { direct, sdk: await post(body) };
  } finally {
    path.direct = true;
  }
}

const toolCall = (id: string | number, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});

describe('2025-era tools/call without a per-request SDK server', () => {
  it('answers every kind of call byte for byte as the SDK does: results, tool errors, odd ids, traces', async () => {
    const calls = [
      toolCall(1, { name: 'list_clients', arguments: {} }),
      toolCall(2, { name: 'get_report', arguments: { id: ids.report } }),
      toolCall(3, {
        name: 'get_report_data',
        arguments: { id: ids.report, datePreset: 'last_7_days', comparePreset: 'previous_period' },
      }),
      toolCall('four', { name: 'get_answer', arguments: { id: ids.project, answerId: ids.answer } }),
      toolCall(5, { name: 'get_ai_visibility_metrics', arguments: { id: ids.project } }),
      toolCall(6, { name: 'whoami' }),
      toolCall(7, { name: 'get_report', arguments: { id: 'rep_doesnotexist00000000' } }),
      toolCall(8, { name: 'get_report', arguments: { id: 'not an id' } }),
      toolCall(9, { name: 'no_such_tool', arguments: {} }),
      toolCall(10, { name: 'list_clients', arguments: { surprise: true } }),
      // A write tool while the workspace's switch is off: a tool error saying why.
      toolCall(11, { name: 'add_prompts', arguments: { id: ids.project, prompts: ['x'] } }),
      toolCall(12, {
        name: 'list_clients',
        arguments: {},
        _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', progressToken: 'p1' },
      }),
    ];
    for (const body of calls) {
      const { direct, sdk } = await bothWays(body);
      expect(direct, JSON.stringify(body)).toEqual(sdk);
      expect(direct.status).toBe(200);
    }
  });

  it('leaves the SDK server out of the calls it takes, and hands everything else to it', async () => {
    const connect = vi.spyOn(Server.prototype, 'connect');
    try {
      expect(
        JSON.parse((await post(toolCall(1, { name: 'list_clients', arguments: {} }))).body).result.structuredContent
          .clients.data.length,
      ).toBeGreaterThan(0);
      expect(connect).not.toHaveBeenCalled();
      // Not a tools/call, or not one the direct path can answer as the SDK would: the SDK answers.
      expect((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(200);
      const malformed = await post(toolCall(3, { name: 'list_clients', arguments: ['not', 'an', 'object'] }));
      expect(JSON.parse(malformed.body).error.code).toBe(-32602);
      expect(connect).toHaveBeenCalledTimes(2);
    } finally {
      connect.mockRestore();
    }
  });

  it("keeps the transport's refusals: a client that cannot read SSE, a version the SDK does not speak", async () => {
    const call = toolCall(1, { name: 'list_clients', arguments: {} });
    expect((await post(call, { ...HEADERS, accept: 'application/json' })).status).toBe(406);
    expect((await post(call, { ...HEADERS, 'mcp-protocol-version': '2024-01-01' })).status).toBe(400);
  });
});

describe('directToolCallOf', () => {
  const headers = (overrides: Record<string, string | null> = {}) => {
    const result = new Headers(HEADERS);
    for (const [name, value] of Object.entries(overrides)) {
      if (value === null) result.delete(name);
      else result.set(name, value);
    }
    return result;
  };
  const plain = toolCall(7, { name: 'list_clients', arguments: { limit: 1 }, _meta: { traceparent: 't' } });

  it(
    'takes one plain tools/call with the headers the transport requires — a message the ' +
      'SDK classifies as 2025-era',
    async () => {
      const taken: [Headers, unknown][] = [
        [headers(), plain],
        [headers({ 'content-type': 'application/json; charset=utf-8' }), toolCall('x', { name: 'whoami' })],
      ];
      expect(directToolCallOf(...taken[0]!)).toEqual({
        id: 7,
        params: { name: 'list_clients', arguments: { limit: 1 }, _meta: { traceparent: 't' } },
      });
      expect(directToolCallOf(...taken[1]!)).toEqual({ id: 'x', params: { name: 'whoami' } });
      // The handler does not ask the SDK's era predicate first: what the direct path takes must be legacy by it.
      for (const [given, body] of taken)
        expect(
          await isLegacyRequest(
            new Request('http://x/mcp', { method: 'POST', headers: given, body: JSON.stringify(body) }),
            body,
          ),
        ).toBe(true);
    },
  );

  it.each([
    ['no protocol version header (the SDK assumes an older one)', headers({ 'mcp-protocol-version': null }), plain],
    ['the 2026-07-28 era', headers({ 'mcp-protocol-version': '2026-07-28' }), plain],
    ['an unsupported version', headers({ 'mcp-protocol-version': '2024-01-01' }), plain],
    ['an Accept without SSE', headers({ accept: 'application/json' }), plain],
    ['a body that is not JSON by its type', headers({ 'content-type': 'text/plain' }), plain],
    ['another method', headers(), { ...plain, method: 'tools/list' }],
    ['a batch', headers(), [plain]],
    ['a notification (no id)', headers(), { jsonrpc: '2.0', method: 'tools/call', params: plain.params }],
    ['a fractional id', headers(), { ...plain, id: 1.5 }],
    ['a null id', headers(), { ...plain, id: null }],
    ['another JSON-RPC version', headers(), { ...plain, jsonrpc: '1.0' }],
    ['an extra member', headers(), { ...plain, extra: 1 }],
    ['a name that is not a string', headers(), toolCall(1, { name: 1 })],
    ['arguments that are a list', headers(), toolCall(1, { name: 'whoami', arguments: [] })],
    ['arguments that are null', headers(), toolCall(1, { name: 'whoami', arguments: null })],
    ['a task-augmented call', headers(), toolCall(1, { name: 'whoami', task: { ttl: 1000 } })],
    [
      'an envelope claim in _meta',
      headers(),
      toolCall(1, { name: 'whoami', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }),
    ],
  ])('leaves %s to the SDK', (_case, given, body) => {
    expect(directToolCallOf(given, body)).toBeNull();
  });
});

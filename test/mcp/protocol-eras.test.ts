// Both protocol eras on one URL: the SDK v2 client speaks 2026-07-28 (server/discover, no
// initialize, no session, per-request headers) and the v1 client the 2025 handshake; both get
// the same tools and the same numbers, through the same OAuth flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { call, personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { seedWorkspace } from '../../src/demo/seed.js';

const served = useListeningApp();
let provider: TestOAuthProvider;
let owner: { cookie: string; csrf: string };
let legacy: LegacyClient;
/** Every request the modern client sent, as it went over the wire. */
const sent: { url: string; headers: Headers; body: string }[] = [];
const answers: Response[] = [];

async function connectModern(mode: 'auto' | { pin: string } = { pin: '2026-07-28' }) {
  const client = new ModernClient({ name: 'modern-tests', version: '1.0.0' }, { versionNegotiation: { mode } });
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (init?.method === 'POST') sent.push({ url: String(input), headers, body: String(init.body) });
    const answer = await fetch(input, init);
    answers.push(answer.clone());
    return answer;
  };
  await client.connect(
    new ModernTransport(new URL(`${served.baseUrl}/mcp/x/all`), { authProvider: provider as never, fetch: recording }),
  );
  return client;
}

beforeAll(async () => {
  const keyed = await createKeyedWorkspace(served.t.database);
  await seedWorkspace(served.t.database.prisma, served.t.database.pool, {
    workspaceId: keyed.workspace.id,
    days: 10,
    clients: 2,
  });
  await personWithPassword(served.t.database, { email: keyed.ownerEmail });
  owner = await signIn(served.t.app, keyed.ownerEmail);
  provider = new TestOAuthProvider({ cookie: owner.cookie, workspaceId: keyed.workspace.id });
  legacy = await connectMcp(served.baseUrl, provider, '/mcp/x/all');
}, 60_000);
afterAll(async () => {
  await legacy?.close();
});

describe('2026-07-28 and 2025 on /mcp', () => {
  it(
    'a 2026-07-28 client discovers instead of initializing, holds no session, and sees ' +
      'the tools and numbers a 2025 client sees',
    async () => {
      const modern = await connectModern();
      try {
        expect(modern.getProtocolEra()).toBe('modern');
        const [modernTools, legacyTools] = [await modern.listTools(), await legacy.listTools()];
        expect(modernTools.tools.map((tool) => tool.name)).toEqual(legacyTools.tools.map((tool) => tool.name));
        expect(modernTools.tools.map((tool) => tool.inputSchema)).toEqual(
          legacyTools.tools.map((tool) => tool.inputSchema),
        );
        // Lists may be cached by this client alone, briefly.
        expect(modernTools).toMatchObject({ ttlMs: 30_000, cacheScope: 'private' });
        for (const name of ['list_clients', 'whoami']) {
          const [a, b] = [
            await modern.callTool({ name, arguments: {} }),
            await legacy.callTool({ name, arguments: {} }),
          ];
          expect(a.structuredContent).toEqual(b.structuredContent);
        }
      } finally {
        await modern.close();
      }
      const methods = sent.map((request) => JSON.parse(request.body).method);
      expect(methods).toContain('server/discover');
      expect(methods).not.toContain('initialize');
      for (const request of sent) expect(request.headers.get('mcp-protocol-version')).toBe('2026-07-28');
      for (const answer of answers) expect(answer.headers.get('mcp-session-id')).toBeNull();
    },
  );

  it('a client that negotiates picks 2026-07-28 too', async () => {
    const modern = await connectModern('auto');
    try {
      expect(modern.getProtocolEra()).toBe('modern');
    } finally {
      await modern.close();
    }
  });

  it('refuses a 2026-07-28 request whose Mcp-Method or Mcp-Name header disagrees with its body', async () => {
    const modern = await connectModern();
    await modern.callTool({ name: 'whoami', arguments: {} });
    await modern.close();
    const original = sent.findLast((request) => JSON.parse(request.body).method === 'tools/call')!;
    const replay = (headers: Record<string, string>) => {
      const merged = new Headers(original.headers);
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
      return fetch(original.url, { method: 'POST', headers: merged, body: original.body });
    };
    const honest = await replay({});
    expect(honest.status).toBe(200);
    for (const forged of [{ 'mcp-method': 'tools/list' }, { 'mcp-name': 'list_clients' }] as Record<string, string>[]) {
      const answer = await replay(forged);
      expect(answer.status).toBe(400);
      expect((await json(answer)).error).toBeTruthy();
    }
  });

  it('tells an open listen stream that the tool list changed when an admin flips the write switch', async () => {
    const modern = await connectModern();
    let changed = 0;
    modern.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    const subscription = await modern.listen({ toolsListChanged: true });
    try {
      const before = (await modern.listTools()).tools.length;
      expect((await call(served.t.app, owner, 'POST', '/app/settings/mcp', { writeActions: true })).status).toBe(200);
      await expect.poll(() => changed, { timeout: 5_000 }).toBeGreaterThan(0);
      // Told to list again, it does without its cache and sees the write tools.
      expect((await modern.listTools(undefined, { cacheMode: 'bypass' } as never)).tools.length).toBeGreaterThan(
        before,
      );
    } finally {
      await call(served.t.app, owner, 'POST', '/app/settings/mcp', { writeActions: false });
      await subscription.close();
      await modern.close();
    }
  });

  it('answers 2025-06-18 clients in their own version', async () => {
    const response = await fetch(`${served.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${provider.saved!.access_token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect((await json(response)).result.protocolVersion).toBe('2025-06-18');
  });
});

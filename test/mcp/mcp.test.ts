// The MCP connector end to end against a listening server: the SDK's client registers,
// gets consent, exchanges the code and refreshes; every read tool; numbers equal v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const served = useListeningApp();
let owner: Awaited<ReturnType<typeof createKeyedWorkspace>>;
let client: Client;
let provider: TestOAuthProvider;

beforeAll(async () => {
  owner = await createKeyedWorkspace(served.t.database);
  await seedWorkspace(served.t.database.prisma, served.t.database.pool, { workspaceId: owner.workspace.id, days: 40, clients: 2 });
  await personWithPassword(served.t.database, { email: owner.ownerEmail });
  const session = await signIn(served.t.app, owner.ownerEmail);
  provider = new TestOAuthProvider({ cookie: session.cookie });
  client = await connectMcp(served.baseUrl, provider);
}, 60_000);
afterAll(async () => {
  await client?.close();
});

describe('the MCP connector', () => {
  it('lets a client that knows only the URL register, get consent and call tools', async () => {
    expect(provider.client?.client_id).toBeTruthy();
    expect(provider.consentPage).toContain('Connect Test MCP client');
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['whoami', 'list_clients', 'get_report_data', 'get_ai_visibility_metrics']));
    const whoami = await client.callTool({ name: 'whoami', arguments: {} });
    expect(whoami.structuredContent).toMatchObject({ viewer: { workspace: { id: owner.workspace.id, mcpWriteActions: false }, role: 'owner', credential: 'OAUTH' } });
  });

  it('returns the same numbers as v1', async () => {
    const reports = await json(await served.t.get('/api/v1/reports', owner.key.secret));
    const id = reports.data[0].id;
    const v1 = await json(await served.t.get(`/api/v1/reports/${id}/data?datePreset=last_30_days`, owner.key.secret));
    const tool = await client.callTool({ name: 'get_report_data', arguments: { id, datePreset: 'last_30_days' } });
    expect((tool.structuredContent as { reportData: { data: unknown } }).reportData.data).toEqual(v1.data);
  });
});

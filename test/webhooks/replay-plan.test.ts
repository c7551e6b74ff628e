// Replaying is a webhook command like creating an endpoint: on a plan without webhooks the MCP
// tool is refused with plan_required, as settings and the CLI refuse it
// (test/settings/settings-doors.test.ts), rather than answering that nothing was replayed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { newId } from '../../src/db/ids.js';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { call, personWithPassword, signIn } from '../support/web.js';

const served = useListeningApp();
let client: Client;
let eventId: string;

beforeAll(async () => {
  const starter = await createKeyedWorkspace(served.t.database, { plan: 'starter' });
  await personWithPassword(served.t.database, { email: starter.ownerEmail });
  const owner = await signIn(served.t.app, starter.ownerEmail);
  // An event from before the workspace left a plan with webhooks.
  eventId = newId('event');
  await served.t.database.prisma.webhookEvent.create({
    data: { id: eventId, workspaceId: starter.workspace.id, type: 'scan.completed', payload: {} },
  });
  client = await connectMcp(
    served.baseUrl,
    new TestOAuthProvider({ cookie: owner.cookie, workspaceId: starter.workspace.id }),
    '/mcp/x/all',
  );
  expect((await call(served.t.app, owner, 'POST', '/app/settings/mcp', { writeActions: true })).status).toBe(200);
}, 60_000);
afterAll(() => client?.close());

describe('replaying on a plan without webhooks', () => {
  it('is refused with plan_required by the MCP tools', async () => {
    for (const [name, args] of [
      ['replay_failed_webhooks', { since: '2026-01-01T00:00:00Z' }],
      ['replay_webhook_event', { eventId }],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: any[] };
      expect(result.isError, name).toBe(true);
      expect(JSON.parse(result.content[0].text).error, name).toMatchObject({
        code: 'plan_required',
        message: expect.stringMatching(/^webhooks need the Pro, Agency or Scale plan; .* is on Starter/),
      });
    }
  });
});

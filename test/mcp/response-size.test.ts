// An MCP tool's answer is held to the response byte cap like /graphql's and v1's: past it, a tool
// error with code response_too_large naming where it ran over, through the real HTTP surface.
import { describe, expect, it } from 'vitest';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';

// The smallest cap there is: whoami fits under it, the metric catalogue does not.
const served = useListeningApp({ RESPONSE_MAX_BYTES: '1024' });

const call = (token: string, name: string) =>
  fetch(`${served.baseUrl}/mcp/x/all`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
  });

describe('an MCP tool answer past the byte cap', () => {
  it('is a tool error response_too_large naming where it ran over; a small answer passes', async () => {
    const keyed = await createKeyedWorkspace(served.t.database);
    await personWithPassword(served.t.database, { email: keyed.ownerEmail });
    const owner = await signIn(served.t.app, keyed.ownerEmail);
    const provider = new TestOAuthProvider({ cookie: owner.cookie, workspaceId: keyed.workspace.id });
    await (await connectMcp(served.baseUrl, provider, '/mcp/x/all')).close();
    const token = provider.saved!.access_token;

    const small = (await json(await call(token, 'whoami'))).result;
    expect(small.isError).toBeFalsy();
    const large = await call(token, 'describe_metrics');
    expect(large.status).toBe(200);
    const result = (await json(large)).result;
    expect(result.isError).toBe(true);
    const error = JSON.parse(result.content[0].text).error;
    expect(error.code).toBe('response_too_large');
    expect(error.message).toMatch(/reached at metricCatalog\./);
  });
});

// What one MCP client may spend and send, through the real HTTP surface with real tokens: tool
// calls spend the same buckets as v1 (the connection's and its workspace's), a batch one token
// per call; batches exist only in 2025-03-26 and are bounded; arguments with NUL or broken
// UTF-8 are argument errors; errors stay small; refusals name their real reason.
import { describe, expect, it } from 'vitest';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { call, personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider, type Browser } from '../support/mcp.js';
import { MCP_LIMITS } from '../../src/mcp/protocol/messages.js';

// A bucket of 8 that refills one token in 50 s, and a workspace bucket of the same size, so that
// one connection can empty its workspace's share.
const BURST = 8;
// `starter` (MCP without API access) is metered at the `pro` size. Answers of at most 2 KiB: a
// few whoami results fill a batch.
const MAX_ANSWER = 2048;
const served = useListeningApp({
  RATE_LIMIT_AGENCY: `${BURST}/0.02`,
  RATE_LIMIT_PRO: `${BURST}/0.02`,
  RATE_LIMIT_WORKSPACE_FACTOR: '1',
  RESPONSE_MAX_BYTES: String(MAX_ANSWER),
});

let registered: TestOAuthProvider['client'];

/** A fresh workspace (its own buckets) with an MCP token for every toolset, and its v1 key. */
async function connected(browser: Partial<Browser> = {}, plan = 'agency') {
  const keyed = await createKeyedWorkspace(served.t.database, { plan });
  await personWithPassword(served.t.database, { email: keyed.ownerEmail });
  const owner = await signIn(served.t.app, keyed.ownerEmail);
  const provider = new TestOAuthProvider({ cookie: owner.cookie, workspaceId: keyed.workspace.id, ...browser });
  // One registered app for every connection: registrations are limited per address.
  provider.client = registered;
  await (await connectMcp(served.baseUrl, provider, '/mcp/x/all')).close();
  registered ??= provider.client;
  return { token: provider.saved!.access_token, key: keyed.key.secret, owner };
}

const toolCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

function post(token: string, body: unknown, revision: string | null = '2025-06-18') {
  return fetch(`${served.baseUrl}/mcp/x/all`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      ...(revision ? { 'mcp-protocol-version': revision } : {}),
    },
    body: body instanceof Uint8Array ? new Blob([body as Uint8Array<ArrayBuffer>]) : JSON.stringify(body),
  });
}

interface ToolResult {
  isError?: boolean;
  content: { text: string }[];
}
const errorOf = (result: ToolResult) =>
  JSON.parse(result.content[0]!.text).error as { code: string; message: string; param?: string };
const resultOf = async (response: Response) => (await json(response)).result as ToolResult;

describe('tool calls spend the buckets v1 spends', () => {
  it(
    'a flood from one connection is refused with 429 and Retry-After, on the direct path ' +
      "and the SDK's, and empties the workspace's share for its v1 keys too",
    async () => {
      const { token, key } = await connected();
      const statuses: number[] = [];
      for (let id = 1; id <= BURST; id++) statuses.push((await post(token, toolCall(id, 'whoami'))).status);
      expect(statuses).toEqual(Array(BURST).fill(200));
      // The plain call (direct path) and one with an extra _meta key (the SDK's server): both refused.
      for (const body of [
        toolCall(100, 'whoami'),
        { ...toolCall(101, 'whoami'), params: { name: 'whoami', arguments: {}, _meta: { 'example.com/x': 1 } } },
      ]) {
        const refused = await post(token, body);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        const answer = await json(refused);
        expect(answer).toMatchObject({
          jsonrpc: '2.0',
          id: body.id,
          error: { message: expect.stringMatching(/retry in \d+ s/), data: { code: 'rate_limited' } },
        });
      }
      // The workspace's bucket is empty too: its API key, untouched so far, is refused and told why.
      const v1 = await served.t.get('/api/v1/clients', key);
      expect(v1.status).toBe(429);
      expect((await json(v1)).error.message).toMatch(/Rate limit of this workspace .* exceeded; retry in \d+ s/);
    },
  );

  it('a 2025-03-26 batch spends a token per call; calls past the bucket are tool errors with a retry', async () => {
    const { token } = await connected();
    // Small answers (not found), so that the batch's byte cap stays out of the way.
    const batch = (first: number) =>
      Array.from({ length: 5 }, (_, index) =>
        toolCall(first + index, 'get_client', { id: 'cli_0000000000000000000X' }),
      );
    const codes = async (response: Response) =>
      ((await json(response)) as { result: ToolResult }[]).map((answer) => errorOf(answer.result).code);
    const first = await post(token, batch(1), '2025-03-26');
    expect(first.status).toBe(200);
    expect(await codes(first)).toEqual(Array(5).fill('not_found'));
    const second = await post(token, batch(10), '2025-03-26');
    expect(second.status).toBe(200);
    const results = ((await json(second)) as { result: ToolResult }[]).map((answer) => answer.result);
    // 8 tokens: 5 + 3 answered, 2 refused.
    expect(results.map(errorOf).filter((error) => error.code === 'not_found')).toHaveLength(BURST - 5);
    const refused = results.map(errorOf).filter((error) => error.code !== 'not_found');
    expect(refused).toHaveLength(2);
    for (const error of refused)
      expect(error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/retry in \d+ s/) });
    expect((await post(token, toolCall(20, 'whoami'))).status).toBe(429);
  });

  it("meters a plan without API access (starter) at the smallest API plan's size, never unlimited", async () => {
    const { token } = await connected({}, 'starter');
    for (let id = 1; id <= BURST; id++) expect((await post(token, toolCall(id, 'whoami'))).status).toBe(200);
    expect((await post(token, toolCall(99, 'whoami'))).status).toBe(429);
  });

  it('spends one token per resource read too, and per view tool call and view document', async () => {
    const { token } = await connected();
    const read = (id: number) =>
      post(token, {
        jsonrpc: '2.0',
        id,
        method: 'resources/read',
        params: { uri: 'signalboard://reports/rep_0000000000000000000X' },
      });
    for (let id = 1; id <= BURST - 2; id++) expect((await read(id)).status).toBe(200);
    // A view's app-only tool and its ui:// document spend like any call and read (MCP Apps).
    expect((await post(token, toolCall(50, 'view_answers', { id: 'prj_0000000000000000000X' }))).status).toBe(200);
    expect(
      (
        await post(token, {
          jsonrpc: '2.0',
          id: 51,
          method: 'resources/read',
          params: { uri: 'ui://signalboard/answers' },
        })
      ).status,
    ).toBe(200);
    expect((await read(99)).status).toBe(429);
    expect(
      (
        await post(token, {
          jsonrpc: '2.0',
          id: 100,
          method: 'resources/read',
          params: { uri: 'ui://signalboard/answers' },
        })
      ).status,
    ).toBe(429);
  });
});

describe('batches', () => {
  it(
    'are refused with 400 and a JSON-RPC error under 2025-06-18 and later, which removed ' +
      'them, and accepted under 2025-03-26 (or no version header)',
    async () => {
      const { token } = await connected();
      const batch = [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ];
      for (const revision of ['2025-06-18', '2025-11-25', '2026-07-28']) {
        const refused = await post(token, batch, revision);
        expect(refused.status, revision).toBe(400);
        expect(await json(refused), revision).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringContaining('send one message per POST') },
        });
      }
      for (const revision of ['2025-03-26', null]) {
        const accepted = await post(token, batch, revision);
        expect(accepted.status, String(revision)).toBe(200);
        expect(((await json(accepted)) as { id: number }[]).map((answer) => answer.id).sort()).toEqual([1, 2]);
      }
    },
  );

  it('share the cap on one answer: calls past it are tool errors response_too_large, the others answered', async () => {
    const { token } = await connected();
    const single = (await (await post(token, toolCall(1, 'whoami'))).text()).length;
    const calls = BURST - 1;
    expect(calls * single).toBeGreaterThan(MAX_ANSWER + 2 * single);
    const answered = await post(
      token,
      Array.from({ length: calls }, (_, index) => toolCall(10 + index, 'whoami')),
      '2025-03-26',
    );
    const text = await answered.text();
    expect(text.length).toBeLessThan(MAX_ANSWER + calls * 400);
    const results = (JSON.parse(text) as { result: ToolResult }[]).map((answer) => answer.result);
    expect(results.filter((result) => !result.isError).length).toBeGreaterThan(0);
    const refused = results.filter((result) => result.isError).map(errorOf);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const error of refused)
      expect(error).toMatchObject({
        code: 'response_too_large',
        message: expect.stringContaining('Send fewer calls per batch'),
      });
  });

  it(`hold at most ${MCP_LIMITS.batchMessages} messages`, async () => {
    const { token } = await connected();
    const pings = (count: number) => Array.from({ length: count }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' }));
    expect((await post(token, pings(MCP_LIMITS.batchMessages), '2025-03-26')).status).toBe(200);
    const refused = await post(token, pings(MCP_LIMITS.batchMessages + 1), '2025-03-26');
    expect(refused.status).toBe(400);
    expect((await json(refused)).error.message).toContain(`at most ${MCP_LIMITS.batchMessages} messages`);
  });
});

describe('arguments', () => {
  it(
    'with a NUL character or a lone surrogate, at any depth, are argument errors naming ' +
      'the argument; a body that is not UTF-8 is a parse error',
    async () => {
      const { token } = await connected();
      const nul = errorOf(
        await resultOf(
          await post(
            token,
            toolCall(1, 'list_answers', { id: 'prj_0000000000000000000X', domain: 'reddit.com\u0000' }),
          ),
        ),
      );
      expect(nul).toMatchObject({
        code: 'invalid_parameter',
        param: 'domain',
        message: expect.stringContaining('NUL'),
      });
      const nested = errorOf(
        await resultOf(
          await post(token, toolCall(2, 'list_answers', { id: 'prj_0000000000000000000X', locale: 'en-US\ud800' })),
        ),
      );
      expect(nested).toMatchObject({
        code: 'invalid_parameter',
        param: 'locale',
        message: expect.stringContaining('lone surrogate'),
      });
      const deep = errorOf(
        await resultOf(
          await post(
            token,
            toolCall(3, 'query_metrics', {
              id: 'cli_0000000000000000000X',
              provider: 'google_ads',
              metrics: ['clicks', 'not\u0000clicks'],
              dimension: 'date',
            }),
          ),
        ),
      );
      expect(deep).toMatchObject({
        code: 'invalid_parameter',
        param: 'metrics',
        message: expect.stringContaining('"metrics[1]" contains a NUL'),
      });
      // 0xFF is never UTF-8: a body with it is not read as U+FFFD in an argument, but refused as a whole.
      const [before, after] = JSON.stringify(
        toolCall(4, 'list_answers', { id: 'prj_0000000000000000000X', domain: 'reddit.@com' }),
      ).split('@');
      const broken = await post(
        token,
        new Uint8Array(Buffer.concat([Buffer.from(before!), Buffer.from([0xff]), Buffer.from(after!)])),
      );
      expect(broken.status).toBe(400);
      expect(await json(broken)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringContaining('not valid UTF-8') },
      });
    },
  );

  it('an error about unknown arguments names the first ten and counts the rest, however many were sent', async () => {
    const { token } = await connected();
    const args = Object.fromEntries(Array.from({ length: 60_000 }, (_, index) => [`n${index}`, 0]));
    const response = await post(token, toolCall(1, 'whoami', args));
    const text = await response.text();
    expect(text.length).toBeLessThan(2_000);
    const error = errorOf(JSON.parse(text).result);
    expect(error).toMatchObject({
      code: 'invalid_parameter',
      param: 'n0',
      message: expect.stringContaining('"n9" and 59990 more'),
    });
  });
});

describe('refusals name the real reason', () => {
  it(
    "a write tool outside the consent's toolsets says to reconnect and grant it; a write " +
      'tool with the switch off says to ask an admin',
    async () => {
      const narrowed = await connected({ toolsets: ['core', 'reports'] });
      expect(
        (await call(served.t.app, narrowed.owner, 'POST', '/app/settings/mcp', { writeActions: true })).status,
      ).toBe(200);
      const outside = errorOf(
        await resultOf(await post(narrowed.token, toolCall(1, 'set_signal_rule', { id: 'prj_0000000000000000000X' }))),
      );
      expect(outside).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining(
          "toolset signals, which this connection's consent does not include: reconnect the app and grant signals",
        ),
      });
      expect(outside.message).not.toContain('admin');

      const full = await connected();
      const switchedOff = errorOf(
        await resultOf(await post(full.token, toolCall(1, 'set_signal_rule', { id: 'prj_0000000000000000000X' }))),
      );
      expect(switchedOff).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('write actions are switched off for this workspace: ask an admin'),
      });
    },
  );
});

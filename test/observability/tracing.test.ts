// Traces against a real OTLP/HTTP endpoint in the test (not a mock SDK): a v1 request carrying
// a caller's traceparent yields a server span in that trace, with the route template, and one
// child span per SQL statement named by its declaration (no values); log lines carry the trace;
// a webhook attempt's trace reaches its receiver as traceparent.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createKeyedWorkspace, type TestApp } from '../support/app.js';
import { listenOnLoopback } from '../support/loopback.js';
import { hexId, type OtlpReceiver, type OtlpSpan } from '../support/otlp-receiver.js';
import { startTracedTestApp } from '../support/traced-app.js';
import { inSpan, tracing } from '../../src/observability/tracing.js';
import { createLogger } from '../../src/config/logger.js';
import { createOutboundFetch } from '../../src/http/outbound-fetch.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { listen } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import pino from 'pino';
import { parseConfig } from '../../src/config/index.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { appendEvents } from '../../src/webhooks/outbox.js';
import { createDeliveryWorker } from '../../src/webhooks/worker.js';
import { OPERATOR } from '../../src/workspaces/actor.js';
import { startReceiver, waitFor } from '../support/webhook-receiver.js';

let receiver: OtlpReceiver;
let t: TestApp;
let close: () => Promise<void>;
const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : undefined);
};

beforeAll(
  async () =>
    ({
      receiver,
      app: t,
      close,
    } = await startTracedTestApp({
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      OTEL_SERVICE_NAME: 'signalboard-test',
    })),
);
afterAll(() => close?.());

describe('tracing', () => {
  it('log lines written inside a span name its trace', async () => {
    const lines: string[] = [];
    const logger = createLogger(
      { LOG_LEVEL: 'info' },
      new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }),
    );
    logger.info('outside');
    const traceId = await inSpan(
      'work',
      {},
      async (span) => {
        logger.info('inside');
        return span!.spanContext().traceId;
      },
      { startsTrace: true },
    );
    expect(JSON.parse(lines[0]!).traceId).toBeUndefined();
    expect(JSON.parse(lines[1]!).traceId).toBe(traceId);
  });

  it('calls we make carry the trace on (traceparent), in a client span', async () => {
    let traceparent: string | undefined;
    const target = await listenOnLoopback(
      http.createServer((req, res) => ((traceparent = req.headers.traceparent as string | undefined), res.end('ok'))),
    );
    try {
      const fetchOut = createOutboundFetch({
        policy: { allowHttp: true, allowPrivate: true },
        timeoutMs: 2_000,
        maxBytes: 1_024,
      });
      const traceId = await inSpan(
        'caller',
        {},
        async (span) => {
          await fetchOut(`${target.baseUrl}/discovery`);
          return span!.spanContext().traceId;
        },
        { startsTrace: true },
      );
      expect(traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    } finally {
      await target.close();
    }
  });

  it('an MCP tool call joins the trace its _meta.traceparent names', async () => {
    const keyed = await createKeyedWorkspace(t.database);
    await personWithPassword(t.database, { email: keyed.ownerEmail });
    const served = await listen(t.app);
    try {
      const browser = await signIn(t.app, keyed.ownerEmail);
      const client = await connectMcp(
        served.baseUrl,
        new TestOAuthProvider({ cookie: browser.cookie, workspaceId: keyed.workspace.id }),
      );
      const callerTrace = '0af7651916cd43dd8448eb211c80319c';
      const callerSpan = 'b7ad6b7169203331';
      const result = await client.callTool({
        name: 'whoami',
        arguments: {},
        _meta: { traceparent: `00-${callerTrace}-${callerSpan}-01` },
      });
      expect(result.isError).toBeFalsy();
      await client.close();
      await tracing.flush();
      const tool = receiver.spans.find((span) => span.name === 'tools/call whoami');
      expect(tool, JSON.stringify(receiver.spans.map((span) => span.name))).toBeDefined();
      expect([hexId(tool!.traceId), hexId(tool!.parentSpanId!)]).toEqual([callerTrace, callerSpan]);
      expect(attribute(tool!, 'gen_ai.tool.name')).toBe('whoami');
      // Its SQL is in the caller's trace too, under the tool's span.
      expect(
        receiver.spans.some(
          (span) => span.name.startsWith('SELECT ') && hexId(span.parentSpanId ?? '') === hexId(tool!.spanId),
        ),
      ).toBe(true);
    } finally {
      await served.close();
    }
  });

  it(
    'a webhook attempt starts a trace of its own and passes it to the receiver ' + '(traceparent of its client span)',
    async () => {
      const keyed = await createKeyedWorkspace(t.database);
      const { box } = t;
      const hook = await startReceiver();
      const endpoint = await createEndpoint(
        { prisma: t.database.prisma, pool: t.database.pool, box, policy: { allowHttp: true, allowPrivate: true } },
        { workspaceId: keyed.workspace.id, url: hook.url, eventTypes: ['scan.completed'], actor: OPERATOR },
      );
      hook.secrets = [endpoint.secret];
      const config = parseConfig({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
      const worker = createDeliveryWorker({
        databaseUrl: t.url,
        prisma: t.database.prisma,
        box,
        config,
        logger: pino({ level: 'silent' }),
      });
      await worker.start();
      try {
        const client = await t.database.pool.connect();
        await client.query('BEGIN');
        await appendEvents(client, [{ workspaceId: keyed.workspace.id, type: 'scan.completed', data: { index: 1 } }]);
        await client.query('COMMIT');
        client.release();
        const [delivery] = await waitFor(() => (hook.received.length ? hook.received : null), 'the delivery');
        expect(delivery!.verifiedBy).toBe(0);
        const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(delivery!.traceparent ?? '') ?? [];
        expect(traceId, String(delivery!.traceparent)).toBeDefined();
        // The receiver answers before the attempt's span ends (it ends when the answer is read),
        // so flush until the span has been exported.
        const attempt = await waitFor(async () => {
          await tracing.flush();
          return receiver.spans.find((span) => span.name === 'POST webhook' && hexId(span.spanId) === spanId);
        }, "the attempt's span");
        expect(hexId(attempt.traceId)).toBe(traceId);
        expect(attempt.parentSpanId ? hexId(attempt.parentSpanId) : '').toBe('');
        expect(attribute(attempt, 'signalboard.event_id')).toBe(delivery!.id);
      } finally {
        await worker.stop();
        await hook.close();
      }
    },
  );

  it(
    "a v1 request joins the caller's trace; its SQL statements are child spans named " + 'by their declaration',
    async () => {
      const keyed = await createKeyedWorkspace(t.database);
      await seedWorkspace(t.database.prisma, t.database.pool, {
        workspaceId: keyed.workspace.id,
        days: 10,
        clients: 1,
      });
      const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
      const callerSpan = '00f067aa0ba902b7';
      const response = await t.get('/api/v1/clients', keyed.key.secret, {
        headers: { traceparent: `00-${callerTrace}-${callerSpan}-01` },
      });
      expect(response.status).toBe(200);
      const graphql = await t.app.fetch(
        new Request('http://test.local/graphql', {
          method: 'POST',
          headers: { authorization: `Bearer ${keyed.key.secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'query WhoAmI { viewer { scopes } }' }),
        }),
      );
      expect(graphql.status).toBe(200);
      await tracing.shutdown();
      const graphqlSpan = receiver.spans.find((span) => span.name === 'POST /graphql');
      expect(graphqlSpan && attribute(graphqlSpan, 'graphql.operation.name')).toBe('WhoAmI');
      const server = receiver.spans.find((span) => span.name === 'GET /api/v1/clients');
      expect(server, JSON.stringify(receiver.spans.map((span) => span.name))).toBeDefined();
      expect(hexId(server!.traceId)).toBe(callerTrace);
      expect(hexId(server!.parentSpanId!)).toBe(callerSpan);
      expect(attribute(server!, 'http.route')).toBe('/api/v1/clients');
      expect(attribute(server!, 'http.response.status_code')).toBe(200);
      const sql = receiver.spans.filter(
        (span) => span.name.startsWith('SELECT ') && hexId(span.traceId) === callerTrace,
      );
      expect(sql.map((span) => span.name)).toContain('SELECT clients.list');
      for (const span of sql) {
        expect(hexId(span.parentSpanId!)).toBe(hexId(server!.spanId));
        expect(attribute(span, 'db.system.name')).toBe('postgresql');
        // Names only: no statement text or values travel.
        expect(JSON.stringify(span)).not.toContain(keyed.workspace.id);
      }
    },
  );
});

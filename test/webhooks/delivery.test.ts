// Webhook delivery end to end: real PostgreSQL, the real worker, real HTTP receivers on
// loopback that verify every delivery with the reference `standardwebhooks` package.
import { hostname } from 'node:os';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { parseConfig } from '../../src/config/index.js';
import { newId } from '../../src/db/ids.js';
import { createSecretBox, decodeKey } from '../../src/secrets/secret-box.js';
import {
  createEndpoint,
  MAX_ENDPOINTS_PER_WORKSPACE,
  revealSecret,
  rotateSecret,
  setEnabled,
  type WebhookDeps,
} from '../../src/webhooks/endpoints.js';
import { replayEvent, replayFailed } from '../../src/webhooks/replays.js';
import { appendEvents } from '../../src/webhooks/outbox.js';
import { createSender } from '../../src/webhooks/sender.js';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/worker.js';
import { validateScanLines } from '../../src/ingest/scan-lines.js';
import { projectRules, writeScans } from '../../src/ingest/scans.js';
import { OPERATOR } from '../../src/workspaces/actor.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { ingestScans, SCAN_COUNTERS } from '../support/ingest.js';
import { TEST_APP_SECRET_KEY } from '../support/secrets.js';
import { startReceiver, waitFor, type Receiver } from '../support/webhook-receiver.js';
import { createProject } from '../support/projects.js';

const TOKEN = 'w'.repeat(40);
const config = parseConfig({
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0.2,0.2',
  WEBHOOK_TIMEOUT_SECONDS: '3',
});
let t: TestApp;
let deps: WebhookDeps;
let worker: DeliveryWorker;
const receivers: Receiver[] = [];

const ingest = (lines: object[]) => ingestScans(t.app, TOKEN, lines);

/** A workspace with one project and one endpoint pointing at a fresh receiver. */
async function setup(
  answer?: Receiver['answer'],
  options: { eventTypes?: ('scan.completed' | 'signal.created')[] } = {},
) {
  const keyed = await createKeyedWorkspace(t.database);
  const project = await createProject(t.database, keyed.workspace.id, {
    name: 'P',
    competitors: ['Globex'],
    models: ['chatgpt'],
    locales: ['en-US'],
  });
  const receiver = await startReceiver(answer);
  receivers.push(receiver);
  const endpoint = await createEndpoint(deps, {
    workspaceId: keyed.workspace.id,
    url: receiver.url,
    eventTypes: options.eventTypes ?? ['scan.completed', 'signal.created'],
    actor: { email: keyed.ownerEmail },
  });
  receiver.secrets = [endpoint.secret];
  const scan = (date: string, overrides: Record<string, unknown> = {}) => ({
    project: project.id,
    date,
    model: 'chatgpt',
    locale: 'en-US',
    ...SCAN_COUNTERS,
    ...overrides,
  });
  return { keyed, project, receiver, endpoint, scan };
}

const eventsOf = async (workspaceId: string) =>
  (
    await t.database.pool.query(
      'SELECT id, type, payload FROM webhook_events WHERE workspace_id = $1 ORDER BY created_at',
      [workspaceId],
    )
  ).rows;
const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const box = createSecretBox(decodeKey(TEST_APP_SECRET_KEY)!);
  deps = { prisma: t.database.prisma, pool: t.database.pool, box, policy: { allowHttp: true, allowPrivate: true } };
  worker = createDeliveryWorker({
    databaseUrl: t.url,
    prisma: t.database.prisma,
    box,
    config,
    logger: pino({ level: 'silent' }),
  });
  await worker.start();
});
afterAll(async () => {
  await worker.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await t.close();
});

describe('events from ingestion', () => {
  it('a scan → exactly one verified scan.completed, its webhook-id the event id', async () => {
    const { keyed, receiver, scan } = await setup();
    expect((await ingest([scan('2026-10-01')])).data).toMatchObject({ accepted: 1 });
    await waitFor(() => receiver.received.length >= 1, 'the delivery');
    await settle();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(delivery!.verifiedBy).toBe(0);
    expect(delivery!.type).toBe('scan.completed');
    const [event] = await eventsOf(keyed.workspace.id);
    expect(delivery!.id).toBe(event.id);
    expect(delivery!.data).toEqual({
      scanId: expect.stringMatching(/^scn_/),
      projectId: expect.any(String),
      date: '2026-10-01',
      model: 'chatgpt',
      locale: 'en-US',
      runCount: 0,
      citationCount: 0,
    });
    expect(Date.parse(delivery!.timestamp)).not.toBeNaN();
  });

  it(
    'a crafted drop → one verified signal.created with the rule and the numbers; identical re-ingest → ' +
      'nothing; a change → scan.completed again',
    async () => {
      const { keyed, receiver, scan } = await setup();
      const drop = { visibilityCount: 20, positionedCount: 20, positionSum: 40 };
      await ingest([scan('2026-10-01')]);
      expect((await ingest([scan('2026-10-02', drop)])).data).toMatchObject({ accepted: 1 });
      await waitFor(() => receiver.received.length >= 3, 'three deliveries');
      const signals = receiver.received.filter((r) => r.type === 'signal.created');
      expect(signals).toHaveLength(1);
      expect(signals[0]!.verifiedBy).toBe(0);
      expect(signals[0]!.data).toMatchObject({
        kind: 'visibility_drop',
        metric: 'visibility',
        before: 0.5,
        after: 0.2,
        threshold: 10,
        date: '2026-10-02',
        model: 'chatgpt',
        locale: 'en-US',
      });
      const stored = await t.database.prisma.signal.findUniqueOrThrow({ where: { id: signals[0]!.data.signalId } });
      expect(stored).toMatchObject({ kind: 'visibility_drop', scanId: signals[0]!.data.scanId });

      const before = (await eventsOf(keyed.workspace.id)).length;
      expect((await ingest([scan('2026-10-02', drop)])).data).toMatchObject({ accepted: 0, replaced: 0, unchanged: 1 });
      await settle();
      expect((await eventsOf(keyed.workspace.id)).length).toBe(before);
      expect(receiver.received).toHaveLength(3);

      // A changed scan replaces its row: scan.completed again, and its signals are re-evaluated.
      expect((await ingest([scan('2026-10-02', { ...drop, visibilityCount: 45 })])).data).toMatchObject({
        replaced: 1,
      });
      await waitFor(() => receiver.received.length >= 4, 'the fourth delivery');
      await settle();
      expect(receiver.received.slice(3).map((r) => r.type)).toEqual(['scan.completed']);
      expect(await t.database.prisma.signal.count({ where: { projectId: signals[0]!.data.projectId } })).toBe(0);
    },
  );

  it('a rolled-back ingest leaves no event', async () => {
    const { keyed, project, receiver } = await setup();
    const lines = [
      {
        line: 1,
        value: { project: project.id, date: '2026-10-05', model: 'chatgpt', locale: 'en-US', ...SCAN_COUNTERS },
      },
    ];
    const rules = await projectRules(t.database.pool, [project.id]);
    const client = await t.database.pool.connect();
    await client.query('BEGIN');
    await writeScans(client, validateScanLines(lines, rules).scans, rules);
    expect(
      (
        await client.query('SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1', [
          keyed.workspace.id,
        ])
      ).rows[0].n,
    ).toBe(1);
    await client.query('ROLLBACK');
    client.release();
    await settle();
    expect(await eventsOf(keyed.workspace.id)).toEqual([]);
    expect(receiver.received).toEqual([]);
  });

  it('an endpoint receives only events created after it was created or re-enabled', async () => {
    const { keyed, endpoint, receiver, scan } = await setup();
    await setEnabled(deps, endpoint.id, false, OPERATOR);
    await ingest([scan('2026-10-01')]);
    await settle();
    await setEnabled(deps, endpoint.id, true, OPERATOR);
    await ingest([scan('2026-10-02')]);
    await waitFor(() => receiver.received.length >= 1, 'the delivery');
    await settle();
    expect(receiver.received.map((r) => r.data.date)).toEqual(['2026-10-02']);
    const audit = await t.database.prisma.auditLogEntry.findMany({
      where: { workspaceId: keyed.workspace.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(audit.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['webhook_endpoint.created', 'webhook_endpoint.disabled', 'webhook_endpoint.enabled']),
    );
  });
});

describe('attempts', () => {
  it(
    'a receiver failing twice then answering 200 gets the third attempt with the same webhook-id; ' +
      'every attempt is recorded',
    async () => {
      const { endpoint, receiver, scan } = await setup((_request, index) => ({
        status: index === 0 ? 500 : index === 1 ? 503 : 200,
      }));
      await ingest([scan('2026-10-01')]);
      await waitFor(() => receiver.received.length >= 3, 'three attempts');
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
      expect(receiver.received.every((r) => r.verifiedBy === 0)).toBe(true);
      const attempts = await waitFor(async () => {
        const rows = (
          await t.database.pool.query(
            'SELECT attempt, response_status, next_attempt_at FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY ' +
              'attempt',
            [endpoint.id],
          )
        ).rows;
        return rows.length === 3 ? rows : null;
      }, 'three recorded attempts');
      expect(attempts.map((a) => [a.attempt, a.response_status])).toEqual([
        [1, 500],
        [2, 503],
        [3, 200],
      ]);
      expect(attempts[0]!.next_attempt_at).not.toBeNull();
      expect(attempts[2]!.next_attempt_at).toBeNull();
      const delivery = (
        await t.database.pool.query('SELECT status, attempt_count FROM webhook_deliveries WHERE endpoint_id = $1', [
          endpoint.id,
        ])
      ).rows[0];
      expect(delivery).toEqual({ status: 'succeeded', attempt_count: 3 });
    },
  );

  it(
    'a workspace downgraded below pro gets no more deliveries (already fanned-out ones wait), and gets ' +
      'them again after an upgrade',
    async () => {
      const { keyed, endpoint, receiver, scan } = await setup((_request, index) => ({
        status: index === 0 ? 500 : 200,
      }));
      await ingest([scan('2026-10-02')]);
      await waitFor(() => receiver.received.length >= 1, 'the first attempt');
      await t.database.pool.query("UPDATE workspaces SET plan = 'starter' WHERE id = $1", [keyed.workspace.id]);
      await settle();
      await settle();
      expect(receiver.received).toHaveLength(1);
      const waiting = (
        await t.database.pool.query('SELECT status FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.id])
      ).rows[0];
      expect(waiting.status).toBe('pending');
      await t.database.pool.query("UPDATE workspaces SET plan = 'pro' WHERE id = $1", [keyed.workspace.id]);
      await waitFor(() => receiver.received.length >= 2, 'the retry after the upgrade');
    },
  );

  it('410 Gone disables the endpoint, with an audit entry', async () => {
    const { keyed, endpoint, receiver, scan } = await setup(() => ({ status: 410 }));
    await ingest([scan('2026-10-01')]);
    await waitFor(
      async () => !(await t.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).enabled,
      'the endpoint to be disabled',
    );
    const row = await t.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.disabledReason).toMatch(/410/);
    expect(receiver.received).toHaveLength(1);
    // The worker writes the audit entry after disabling the endpoint.
    const audit = await waitFor(
      () =>
        t.database.prisma.auditLogEntry.findFirst({
          where: { workspaceId: keyed.workspace.id, action: 'webhook_endpoint.disabled' },
        }),
      'the audit entry',
    );
    expect(audit).toMatchObject({ actor: 'system', target: endpoint.id });
  });

  it('an endpoint failing every attempt for five days is disabled', async () => {
    const { endpoint, receiver, scan } = await setup(() => ({ status: 500 }));
    await t.database.pool.query(
      "UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1",
      [endpoint.id],
    );
    await ingest([scan('2026-10-01')]);
    await waitFor(
      async () => !(await t.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).enabled,
      'the endpoint to be disabled',
    );
    expect(
      (await t.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).disabledReason,
    ).toMatch(/every attempt failed since/);
    expect(receiver.received).toHaveLength(1);
  });

  it('Retry-After on 429 postpones the next attempt beyond the schedule', async () => {
    const { endpoint, scan } = await setup(() => ({ status: 429, headers: { 'retry-after': '120' } }));
    await ingest([scan('2026-10-01')]);
    const attempt = await waitFor(
      async () =>
        (
          await t.database.pool.query(
            'SELECT next_attempt_at, created_at FROM webhook_attempts WHERE endpoint_id = $1',
            [endpoint.id],
          )
        ).rows[0],
      'the attempt',
    );
    expect((attempt.next_attempt_at.getTime() - attempt.created_at.getTime()) / 1000).toBeGreaterThanOrEqual(119);
  });

  it('during rotation both the new and the previous secret verify every delivery', async () => {
    const { endpoint, receiver, scan } = await setup();
    const old = endpoint.secret;
    const rotated = await rotateSecret(deps, endpoint.id, OPERATOR);
    expect(rotated.secret).not.toBe(old);
    expect((await revealSecret(deps, endpoint.id, OPERATOR)).secret).toBe(rotated.secret);
    await ingest([scan('2026-10-01')]);
    await waitFor(() => receiver.received.length >= 1, 'the delivery');
    const { body, headers } = receiver.received[0]!.raw;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(rotated.secret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(old).verify(body, headers)).not.toThrow();
    // After the grace period only the new secret signs.
    await t.database.pool.query(
      "UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1",
      [endpoint.id],
    );
    await ingest([scan('2026-10-02')]);
    await waitFor(() => receiver.received.length >= 2, 'the second delivery');
    const second = receiver.received[1]!.raw;
    expect(second.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(old).verify(second.body, second.headers)).toThrow();
  });

  it('replay of one event and of every failed delivery since a time send again with the same ids', async () => {
    let healthy = false;
    const { keyed, receiver, scan } = await setup(() => ({ status: healthy ? 200 : 500 }));
    await ingest([scan('2026-10-01')]);
    await ingest([scan('2026-10-02')]);
    // Three attempts each (the compressed schedule has two retries), then failed.
    await waitFor(
      async () =>
        (
          await t.database.pool.query(
            'SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE ' +
              "e.workspace_id = $1 AND d.status = 'failed'",
            [keyed.workspace.id],
          )
        ).rows[0].n === 2,
      'two failed deliveries',
    );
    const [first, second] = await eventsOf(keyed.workspace.id);
    healthy = true;
    const replayed = await replayEvent(deps, first.id, null, OPERATOR);
    expect(replayed.endpoints).toHaveLength(1);
    await waitFor(
      () => receiver.received.some((r) => r.id === first.id && receiver.received.indexOf(r) >= 6),
      'the replayed event',
    );
    const since = new Date(Date.now() - 60_000);
    expect((await replayFailed(deps, keyed.workspace.id, since, OPERATOR)).replayed).toBe(1);
    await waitFor(() => receiver.received.length >= 8, 'the replayed failed delivery');
    await settle();
    const successes = receiver.received.slice(6);
    expect(successes.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
    expect(successes.every((r) => r.verifiedBy === 0)).toBe(true);
    const audit = await t.database.prisma.auditLogEntry.findMany({
      where: {
        workspaceId: keyed.workspace.id,
        action: { in: ['webhook_event.replayed', 'webhook_deliveries.replayed'] },
      },
    });
    expect(audit).toHaveLength(2);
  });

  it('one slow endpoint does not hold back another', async () => {
    const slow = await setup(() => ({ status: 200, delayMs: 1500 }));
    const fast = await startReceiver();
    receivers.push(fast);
    const fastEndpoint = await createEndpoint(deps, {
      workspaceId: slow.keyed.workspace.id,
      url: fast.url,
      eventTypes: ['scan.completed'],
      actor: OPERATOR,
    });
    fast.secrets = [fastEndpoint.secret];
    await ingest(Array.from({ length: 30 }, (_, day) => slow.scan(`2026-09-${String(day + 1).padStart(2, '0')}`)));
    await waitFor(() => fast.received.length >= 30, 'the fast receiver', 10_000);
    expect(slow.receiver.received.length).toBeLessThanOrEqual(config.WEBHOOK_ENDPOINT_CONCURRENCY * 2);
    expect(slow.receiver.maxConcurrent).toBeLessThanOrEqual(config.WEBHOOK_ENDPOINT_CONCURRENCY);
    expect(fast.received.every((r) => r.verifiedBy === 0)).toBe(true);
  });

  it(
    'a workspace whose receivers never answer holds at most its share of the slots: another workspace ' +
      'is delivered meanwhile',
    async () => {
      const stall: Receiver['answer'] = () => ({ status: 200, delayMs: config.WEBHOOK_TIMEOUT_SECONDS * 3000 });
      const stalled = await setup(stall, { eventTypes: ['scan.completed'] });
      // Enough endpoints (each its own receiver, as the sender pools sockets per origin) for the backlog
      // to take every slot of the worker if nothing bounded a workspace.
      const endpointIds = [stalled.endpoint.id];
      while (endpointIds.length * config.WEBHOOK_ENDPOINT_CONCURRENCY < config.WEBHOOK_CONCURRENCY) {
        const receiver = await startReceiver(stall);
        receivers.push(receiver);
        endpointIds.push(
          (
            await createEndpoint(deps, {
              workspaceId: stalled.keyed.workspace.id,
              url: receiver.url,
              eventTypes: ['scan.completed'],
              actor: OPERATOR,
            })
          ).id,
        );
      }
      const stalledUrls = new Set(
        (await t.database.prisma.webhookEndpoint.findMany({ where: { id: { in: endpointIds } } })).map(
          (endpoint) => endpoint.url,
        ),
      );
      const stalledReceived = () =>
        receivers
          .filter((receiver) => stalledUrls.has(receiver.url))
          .reduce((sum, receiver) => sum + receiver.received.length, 0);
      await ingest(
        Array.from({ length: config.WEBHOOK_ENDPOINT_CONCURRENCY + 2 }, (_, day) =>
          stalled.scan(`2026-08-${String(day + 1).padStart(2, '0')}`),
        ),
      );
      await waitFor(() => stalledReceived() >= config.WEBHOOK_WORKSPACE_CONCURRENCY, "the stalled workspace's share");

      const other = await setup();
      await ingest([other.scan('2026-10-01')]);
      await waitFor(() => other.receiver.received.length >= 1, "the other workspace's delivery");
      // It arrived while every attempt of the stalled workspace was still open (none has an outcome yet).
      const attempts = await t.database.pool.query(
        'SELECT count(*)::int AS n FROM webhook_attempts WHERE endpoint_id = ANY($1)',
        [endpointIds],
      );
      expect(attempts.rows[0].n).toBe(0);
      expect(stalledReceived()).toBe(config.WEBHOOK_WORKSPACE_CONCURRENCY);
      for (const id of endpointIds) await setEnabled(deps, id, false, OPERATOR);
    },
  );

  it("a receiver that hangs holds no socket another workspace's endpoint on the same host needs", async () => {
    // One host for both workspaces (a Zapier, an n8n): the stalled workspace's path hangs, the other's answers at once.
    const shared = await startReceiver((request) =>
      request.path.endsWith('/stalled')
        ? { status: 200, delayMs: config.WEBHOOK_TIMEOUT_SECONDS * 3000 }
        : { status: 204 },
    );
    receivers.push(shared);
    /** A workspace whose one enabled endpoint is `path` on the shared receiver. */
    const onShared = async (path: string) => {
      const workspace = await setup(undefined, { eventTypes: ['scan.completed'] });
      await setEnabled(deps, workspace.endpoint.id, false, OPERATOR);
      const endpoint = await createEndpoint(deps, {
        workspaceId: workspace.keyed.workspace.id,
        url: `${shared.url}${path}`,
        eventTypes: ['scan.completed'],
        actor: OPERATOR,
      });
      return { ...workspace, sharedEndpoint: endpoint };
    };
    const stalled = await onShared('/stalled');
    const stalledEndpoint = stalled.sharedEndpoint;
    await ingest(
      Array.from({ length: config.WEBHOOK_ENDPOINT_CONCURRENCY + 2 }, (_, day) =>
        stalled.scan(`2026-11-${String(day + 1).padStart(2, '0')}`),
      ),
    );
    const hanging = () => shared.received.filter((request) => request.path.endsWith('/stalled')).length;
    await waitFor(() => hanging() >= config.WEBHOOK_ENDPOINT_CONCURRENCY, 'the stalled endpoint full');

    const other = await onShared('/other');
    const otherEndpoint = other.sharedEndpoint;
    await ingest([other.scan('2026-10-02')]);
    await waitFor(
      () => shared.received.some((request) => request.path.endsWith('/other')),
      "the other workspace's delivery",
    );
    // Delivered while the stalled endpoint's attempts were all still open: none waited for their timeout.
    const attempts = await t.database.pool.query(
      'SELECT count(*)::int AS n FROM webhook_attempts WHERE endpoint_id = $1',
      [stalledEndpoint.id],
    );
    expect(attempts.rows[0].n).toBe(0);
    expect(hanging()).toBe(config.WEBHOOK_ENDPOINT_CONCURRENCY);
    await setEnabled(deps, stalledEndpoint.id, false, OPERATOR);
    await setEnabled(deps, otherEndpoint.id, false, OPERATOR);
  });
});

describe('targets and endpoints', () => {
  it(
    'refuses http, private addresses and names resolving to them when not allowed, at creation and at ' + 'send time',
    async () => {
      const strict = { allowHttp: false, allowPrivate: false };
      const keyed = await createKeyedWorkspace(t.database);
      const create = (url: string) =>
        createEndpoint(
          { ...deps, policy: strict },
          { workspaceId: keyed.workspace.id, url, eventTypes: ['scan.completed'], actor: OPERATOR },
        );
      await expect(create('http://hooks.example.com/x')).rejects.toThrow(/must use https/);
      await expect(create('https://10.0.0.5/x')).rejects.toThrow(/private/);
      await expect(create('https://[::ffff:127.0.0.1]/x')).rejects.toThrow(/loopback/);
      await expect(create('https://localhost/x')).rejects.toThrow(/loopback/);

      const receiver = await startReceiver();
      receivers.push(receiver);
      const port = new URL(receiver.url).port;
      const send = async (url: string, policy: { allowHttp: boolean; allowPrivate: boolean }) => {
        const sender = createSender({ policy, timeoutMs: 2000, maxSockets: 1 });
        try {
          return await sender.send(url, {}, '{}');
        } finally {
          sender.close();
        }
      };
      expect((await send(receiver.url, strict)).error).toMatch(/target refused: .*https/);
      expect((await send(receiver.url, { allowHttp: true, allowPrivate: false })).error).toMatch(
        /target refused: 127.0.0.1 is a loopback address/,
      );
      // A name the resolver maps to a non-public address: refused in the lookup the socket uses, without telling the
      // tenant the address; a name that resolves to nothing reads the same (no oracle of internal names).
      const named = await send(`http://${hostname()}:${port}/hook`, { allowHttp: true, allowPrivate: false });
      expect(named.error).toBe(`target refused: ${hostname().toLowerCase()} does not resolve to a public address`);
      expect((await send('http://no-such-name.invalid/hook', { allowHttp: true, allowPrivate: false })).error).toBe(
        'target refused: no-such-name.invalid does not resolve to a public address',
      );
      expect(receiver.received).toEqual([]);
      expect((await send(receiver.url, { allowHttp: true, allowPrivate: true })).status).toBe(200);
    },
  );

  it('hold their cap of 20 a workspace against creates sent in parallel', async () => {
    const { keyed } = await setup();
    const sent = await Promise.allSettled(
      Array.from({ length: 25 }, (_, index) =>
        createEndpoint(deps, {
          workspaceId: keyed.workspace.id,
          url: `https://example.com/parallel/${index}`,
          eventTypes: ['scan.completed'],
          actor: { email: keyed.ownerEmail },
        }),
      ),
    );
    expect(sent.filter((result) => result.status === 'fulfilled')).toHaveLength(MAX_ENDPOINTS_PER_WORKSPACE - 1);
    expect(await t.database.prisma.webhookEndpoint.count({ where: { workspaceId: keyed.workspace.id } })).toBe(
      MAX_ENDPOINTS_PER_WORKSPACE,
    );
  });

  it('are for pro plans and above, owners and admins only; secrets are stored sealed', async () => {
    const starter = await createKeyedWorkspace(t.database, { plan: 'starter' });
    await expect(
      createEndpoint(deps, {
        workspaceId: starter.workspace.id,
        url: 'https://hooks.example.com/',
        eventTypes: ['scan.completed'],
        actor: OPERATOR,
      }),
    ).rejects.toThrow(/need the Pro, Agency or Scale plan/);
    const keyed = await createKeyedWorkspace(t.database);
    const member = await t.database.prisma.user.create({
      data: { id: newId('user'), email: `member-${keyed.workspace.slug}@example.test`, name: 'M' },
    });
    await t.database.prisma.membership.create({
      data: { id: newId('membership'), workspaceId: keyed.workspace.id, userId: member.id, role: 'member' },
    });
    await expect(
      createEndpoint(deps, {
        workspaceId: keyed.workspace.id,
        url: 'https://hooks.example.com/',
        eventTypes: ['scan.completed'],
        actor: { email: member.email },
      }),
    ).rejects.toThrow(/only owners and admins/);
    const endpoint = await createEndpoint(deps, {
      workspaceId: keyed.workspace.id,
      url: 'https://hooks.example.com/',
      eventTypes: ['scan.completed'],
      actor: { email: keyed.ownerEmail },
    });
    await expect(revealSecret(deps, endpoint.id, { email: member.email })).rejects.toThrow(/only owners and admins/);
    const row = (await t.database.pool.query('SELECT secret FROM webhook_endpoints WHERE id = $1', [endpoint.id]))
      .rows[0];
    expect(row.secret).not.toContain(endpoint.secret.slice('whsec_'.length));
    expect(row.secret).toMatch(/^v1:/);
  });

  it('events older than the retention period are removed with their deliveries and attempts', async () => {
    const { keyed, receiver } = await setup();
    await appendEvents(t.database.pool as never, [
      { workspaceId: keyed.workspace.id, type: 'scan.completed', data: { old: true } },
    ]);
    const [event] = await eventsOf(keyed.workspace.id);
    await waitFor(() => receiver.received.length === 1, 'the delivery');
    await t.database.pool.query("UPDATE webhook_events SET created_at = now() - interval '31 days' WHERE id = $1", [
      event.id,
    ]);
    const attemptsOfEvent = async () =>
      (
        await t.database.pool.query(
          'SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id ' +
            'WHERE d.event_id = $1',
          [event.id],
        )
      ).rows[0].n;
    // The worker records the attempt once the receiver has answered: after the receiver saw it.
    await waitFor(async () => (await attemptsOfEvent()) === 1, 'the attempt recorded');
    // A worker sweeps at its start (and every ten minutes after).
    const sweeper = createDeliveryWorker({
      databaseUrl: t.url,
      prisma: t.database.prisma,
      box: deps.box,
      config,
      logger: pino({ level: 'silent' }),
    });
    await sweeper.start();
    await sweeper.idle();
    await sweeper.stop();
    expect(await eventsOf(keyed.workspace.id)).toEqual([]);
    expect(
      (await t.database.pool.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1', [event.id]))
        .rows[0].n,
    ).toBe(0);
    expect(
      (
        await t.database.pool.query(
          'SELECT count(*)::int AS n FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d ' +
            'WHERE d.id = a.delivery_id)',
        )
      ).rows[0].n,
    ).toBe(0);
  });
});

// Two server processes behind one database (and one Redis): revocation reaches both at
// once, and the token bucket is shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { createApiKey, revokeApiKey } from '../../src/auth/key-management.js';
import { INVALIDATION_CHANNEL } from '../../src/auth/invalidation.js';
import { createTestDatabase } from '../support/database.js';
import { createKeyedWorkspace } from '../support/app.js';
import { redisAvailable, startRedis, startServerProcess, type ServerProcess } from '../support/processes.js';

let url: string;
let database: Database;

beforeAll(async () => {
  url = await createTestDatabase();
  database = connectDatabase(url, 3);
});
afterAll(() => database.close());

const call = (server: ServerProcess, key: string) =>
  fetch(`${server.baseUrl}/api/v1/clients`, { headers: { authorization: `Bearer ${key}` } });

async function revokeAndExpectFailureEverywhere(servers: ServerProcess[], notify: (target: string) => Promise<void>) {
  const { key, ownerEmail } = await createKeyedWorkspace(database);
  // Warm both instances' key caches.
  for (const server of servers) expect((await call(server, key.secret)).status).toBe(200);
  await revokeApiKey(database.prisma, notify, key.id, { email: ownerEmail });
  // The notification arrives asynchronously (later on a loaded machine). Each instance must refuse
  // the key well before its cache would have let it go on its own (30 s): only the notification
  // can do that within 10 s.
  for (const server of servers) {
    const refusal = async () => {
      const response = await call(server, key.secret);
      return `${response.status} ${(await response.json()).error?.code}`;
    };
    await expect.poll(refusal, { timeout: 10_000, interval: 50 }).toBe('401 api_key_revoked');
  }
}

describe('two instances on PostgreSQL only', () => {
  let servers: ServerProcess[] = [];
  beforeAll(async () => {
    servers = await Promise.all([startServerProcess({ DATABASE_URL: url }), startServerProcess({ DATABASE_URL: url })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('revokes a key on every instance at once (LISTEN/NOTIFY)', async () => {
    await revokeAndExpectFailureEverywhere(servers, async (target) => {
      await database.pool.query('SELECT pg_notify($1, $2)', [INVALIDATION_CHANNEL, target]);
    });
  });
});

describe.skipIf(!redisAvailable())('two instances sharing Redis', () => {
  let servers: ServerProcess[] = [];
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    redis = await startRedis();
    const env = {
      DATABASE_URL: url,
      REDIS_URL: redis.url,
      RATE_LIMIT_AGENCY: '40/1',
      WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
    };
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await redis?.stop();
  });

  it('each instance is ready only with Redis answering, and says so in /readyz', async () => {
    for (const server of servers)
      expect(await (await fetch(`${server.baseUrl}/readyz`)).json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', migrations: 'ok', redis: 'ok' },
      });
  });

  it('shares one bucket per key: a burst of capacity + 50 over both yields capacity successes (± refill)', async () => {
    const { key } = await createKeyedWorkspace(database);
    // Both instances answer (and have compiled their routes) before the burst, with another key.
    const warmup = await createKeyedWorkspace(database);
    for (const server of servers) expect((await call(server, warmup.key.secret)).status).toBe(200);
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 90 }, (_, index) => call(servers[index % 2]!, key.secret)),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    const ok = responses.filter((response) => response.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(40);
    expect(ok).toBeLessThanOrEqual(40 + Math.ceil(elapsedSeconds));
    expect(responses.filter((response) => response.status === 429).length).toBe(90 - ok);
    // Each instance answered all 45 of its requests from the bucket (200 or 429, nothing else);
    // had each its own bucket, 80 would have succeeded, not 40 (+ refill).
    for (const server of [0, 1]) {
      const statuses = responses.filter((_, index) => index % 2 === server).map((response) => response.status);
      expect(statuses).toHaveLength(45);
      expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    }
  });

  it(
    'shares one bucket per workspace: four keys of one workspace over both instances ' +
      "get the workspace's 3 × 40, not 4 × 40",
    async () => {
      const { workspace, key, ownerEmail } = await createKeyedWorkspace(database);
      const keys = [
        key.secret,
        ...(
          await Promise.all(
            [1, 2, 3].map((n) =>
              createApiKey(database.prisma, {
                workspaceId: workspace.id,
                name: `key ${n}`,
                actor: { email: ownerEmail },
              }),
            ),
          )
        ).map((created) => created.secret),
      ];
      const warmup = await createKeyedWorkspace(database);
      for (const server of servers) expect((await call(server, warmup.key.secret)).status).toBe(200);
      const started = Date.now();
      const responses = await Promise.all(
        Array.from({ length: 4 * 45 }, (_, index) => call(servers[index % 2]!, keys[index % 4]!)),
      );
      const elapsedSeconds = (Date.now() - started) / 1000;
      const ok = responses.filter((response) => response.status === 200).length;
      // The workspace's bucket: 120 burst, 3 per second.
      expect(ok).toBeGreaterThanOrEqual(120);
      expect(ok).toBeLessThanOrEqual(120 + Math.ceil(elapsedSeconds * 3));
      const messages = await Promise.all(
        responses
          .filter((response) => response.status === 429)
          .map(async (response) => (await response.json()).error.message as string),
      );
      expect(messages.some((message) => /this workspace/.test(message))).toBe(true);
    },
  );

  it('revokes a key on every instance at once (Redis pub/sub)', async () => {
    const publisher = new Redis(redis.url);
    try {
      await revokeAndExpectFailureEverywhere(servers, async (target) => {
        await publisher.publish(INVALIDATION_CHANNEL, target);
      });
    } finally {
      publisher.disconnect();
    }
  });
});

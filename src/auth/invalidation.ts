// Fan-out of "this key changed" to every instance: PostgreSQL LISTEN/NOTIFY by default
// (every instance already has the database), Redis pub/sub when REDIS_URL is set.
import pg from 'pg';
import type { Redis } from 'ioredis';
import { runStatement, sqlStatement } from '../db/sql-runner.js';

export const INVALIDATION_CHANNEL = 'signalboard_key_invalidation';

const NOTIFY = sqlStatement<never, { channel: string; target: string }>(
  'auth.invalidation-notify',
  (param) => `SELECT pg_notify(${param('channel')}, ${param('target')})`,
);

/**
 * Whether an invalidation arrived while a lookup ran. A lookup that read a key or token before its
 * revocation committed must not store what it read after the revocation's message emptied the
 * cache: the revoked credential would be accepted for the cache's whole TTL.
 */
export function invalidationCounter() {
  let invalidations = 0;
  return {
    invalidated(): void {
      invalidations++;
    },
    /** Called as a lookup begins; the function it returns says whether its result may still be kept. */
    begin(): () => boolean {
      const at = invalidations;
      return () => invalidations === at;
    },
  };
}

export interface InvalidationBus {
  publish(target: string): Promise<void>;
  close(): Promise<void>;
}

/** Listens on PostgreSQL; reconnects after the database comes back, dropping every cached key then. */
export async function listenPostgres(
  databaseUrl: string,
  onMessage: (target: string) => void,
  onReconnect: () => void,
): Promise<InvalidationBus> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2_000 });
    next.on('notification', (message) => message.payload && onMessage(message.payload));
    next.on('error', () => scheduleReconnect());
    next.on('end', () => scheduleReconnect());
    await next.connect();
    await next.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    client = next;
  };
  const scheduleReconnect = () => {
    if (closed || retry) return;
    client = null;
    retry = setTimeout(async () => {
      retry = undefined;
      try {
        await connect();
        // Notifications sent while we were away are lost: forget everything cached.
        onReconnect();
      } catch {
        scheduleReconnect();
      }
    }, 1_000);
    retry.unref();
  };
  await connect();

  return {
    async publish(target) {
      const publisher = new pg.Client({ connectionString: databaseUrl });
      await publisher.connect();
      try {
        await runStatement(publisher, NOTIFY, { channel: INVALIDATION_CHANNEL, target });
      } finally {
        await publisher.end();
      }
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

export async function listenRedis(
  subscriber: Redis,
  publisher: Redis,
  onMessage: (target: string) => void,
): Promise<InvalidationBus> {
  await subscriber.subscribe(INVALIDATION_CHANNEL);
  subscriber.on('message', (_channel, message) => onMessage(message));
  return {
    async publish(target) {
      await publisher.publish(INVALIDATION_CHANNEL, target);
    },
    async close() {
      await subscriber.quit().catch(() => {});
    },
  };
}

// Everything a running instance owns: database, key cache with its invalidation channel,
// rate-limit store, and the app. server.ts and the tests start it the same way.
import type { Logger } from 'pino';
import { createLogger } from './config/logger.js';
import type { Config } from './config/index.js';
import { openDatabase, type ResolvedDatabase } from './db/bootstrap.js';
import { createApiKeyAuthenticator } from './auth/api-keys.js';
import { listenPostgres, listenRedis, type InvalidationBus } from './auth/invalidation.js';
import { memoryRateLimitStore, redisRateLimitStore, rememberingRefusals } from './auth/rate-limit-store.js';
import { createApp, type App } from './app.js';
import { resolveSecretBox } from './secrets/app-secret-key.js';
import { createDeliveryWorker } from './webhooks/worker.js';
import type { ReadinessProbe } from './http/readiness.js';

export interface Runtime {
  app: App;
  db: ResolvedDatabase;
  logger: Logger;
  invalidation: InvalidationBus;
  close(): Promise<void>;
}

export async function startRuntime(config: Config, logger = createLogger(config)): Promise<Runtime> {
  const db = await openDatabase(config);
  const authenticator = createApiKeyAuthenticator(db.database.pool);
  // Until the app exists only the key cache listens; then the app takes every message (keys and MCP tokens).
  let onMessage = (target: string) => authenticator.invalidate(target);
  const onInvalidate = (target: string) => onMessage(target);
  const closers: (() => Promise<unknown>)[] = [];

  let invalidation: InvalidationBus;
  let rateLimitStore = memoryRateLimitStore();
  const readinessProbes: ReadinessProbe[] = [];
  if (config.REDIS_URL) {
    const { Redis } = await import('ioredis');
    const redisOptions = {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      lazyConnect: true,
    };
    const commands = new Redis(config.REDIS_URL, redisOptions);
    const subscriber = new Redis(config.REDIS_URL, { ...redisOptions, enableOfflineQueue: true });
    for (const client of [commands, subscriber])
      client.on('error', (error) => logger.warn({ err: error }, 'redis error'));
    await Promise.all([commands.connect(), subscriber.connect()]);
    // After a Redis outage, messages may have been missed: forget cached keys.
    subscriber.on('ready', () => onInvalidate('*'));
    rateLimitStore = rememberingRefusals(redisRateLimitStore(commands));
    readinessProbes.push({ name: 'redis', check: async () => (await commands.ping()) === 'PONG' });
    invalidation = await listenRedis(subscriber, commands, onInvalidate);
    closers.push(() => commands.quit().catch(() => {}));
  } else {
    invalidation = await listenPostgres(db.url, onInvalidate, () => onInvalidate('*'));
  }

  const box = resolveSecretBox(config, (message) => logger.warn(message));
  const app = createApp({
    config,
    database: db.database,
    authenticator,
    rateLimitStore,
    logger,
    box,
    notify: (target) => invalidation.publish(target),
    readinessProbes,
  });
  onMessage = (target) => app.invalidate(target);
  if (config.WEBHOOK_WORKER) {
    const worker = createDeliveryWorker({
      databaseUrl: db.url,
      prisma: db.database.prisma,
      box,
      config,
      logger,
      onOutcome: (outcome) => app.metrics.webhookDelivery(outcome),
    });
    await worker.start();
    // Before the database closes: attempts in flight finish and are recorded.
    closers.unshift(() => worker.stop());
  }
  return {
    app,
    db,
    logger,
    invalidation,
    async close() {
      await invalidation.close();
      for (const close of closers) await close();
      await db.database.close();
      await db.embedded?.stop();
    },
  };
}

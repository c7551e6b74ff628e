// `npm run worker`: the delivery worker alone, beside any number of API instances (set
// WEBHOOK_WORKER=false on those to keep delivery in dedicated processes). Its own composition
// root: configuration, database, secret box, worker — nothing of the web app is loaded.
import '../config/node-version.js';
import '../config/v8-flags.js';
import { configOrExit } from '../config/index.js';
import { createLogger, routeConsole } from '../config/logger.js';
import { startTracing, tracing } from '../observability/tracing.js';
import { openDatabase } from '../db/bootstrap.js';
import { releaseSignals } from '../db/embedded.js';
import { resolveSecretBox } from '../secrets/app-secret-key.js';
import { createDeliveryWorker } from './worker.js';
import { webhookBacklog } from './outbox.js';
import { createMetrics, poolStats } from '../observability/metrics.js';
import { serveMetrics } from '../observability/metrics-server.js';

async function main() {
  const config = configOrExit(process.env);
  const logger = createLogger(config);
  routeConsole(logger);
  await startTracing(config);
  const db = await openDatabase(config);
  // The worker's own /metrics (METRICS_PORT): deliveries by outcome, the outbox, its pool, the process.
  const metrics = createMetrics({ enabled: config.METRICS_PORT !== 0 });
  metrics.watch({
    pools: () => ({ primary: poolStats(db.database.pool) }),
    webhookBacklog: () => webhookBacklog(db.database.pool),
  });
  const metricsServer = config.METRICS_PORT
    ? await serveMetrics(metrics, { port: config.METRICS_PORT, host: config.HOST }, logger)
    : null;
  const worker = createDeliveryWorker({
    databaseUrl: db.url,
    prisma: db.database.prisma,
    box: resolveSecretBox(config, (message) => logger.warn(message)),
    config,
    logger,
    onOutcome: (outcome) => metrics.webhookDelivery(outcome),
  });
  await worker.start();
  logger.info({ database: db.embedded ? 'embedded' : 'external' }, 'webhook worker started');
  const stop = async (signal: string) => {
    logger.info({ signal }, 'webhook worker stopping');
    await worker.stop();
    metricsServer?.close();
    await tracing.shutdown();
    await db.database.close();
    await db.embedded?.stop();
    process.exit(0);
  };
  releaseSignals();
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error(`Signalboard worker failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

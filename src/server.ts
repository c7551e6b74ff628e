// Starts one instance: configuration, database (embedded when DATABASE_URL is unset),
// migrations, demo data on first start, then HTTP. SIGTERM/SIGINT drain and stop.
import './config/node-version.js';
import './config/v8-flags.js';
import { configOrExit } from './config/index.js';
import { startRuntime } from './runtime.js';
import { createLogger, routeConsole } from './config/logger.js';
import { DEMO_OWNER_EMAIL, seedDemoIfEmpty } from './demo/first-start.js';
import { createNodeServer } from './doors/node-server.js';
import { releaseSignals } from './db/embedded.js';
import { serveMetrics } from './observability/metrics-server.js';
import { startTracing, tracing } from './observability/tracing.js';

/** What the person at the terminal reads once the instance listens: its doors, and the demo's key and sign-in. */
function startBanner(base: string, demo: Awaited<ReturnType<typeof seedDemoIfEmpty>>): string[] {
  const lines = [
    '',
    `Signalboard is listening on ${base}`,
    `  GraphiQL:       ${base}/graphql`,
    `  API reference:  ${base}/api/v1/docs`,
    `  OpenAPI:        ${base}/api/v1/openapi.json`,
    `  Web app:        ${base}/app/login`,
    `  MCP connector:  ${base}/mcp   (OAuth; point an MCP client at it)`,
  ];
  if (demo) {
    const { clients, reports, facts, scans } = demo.summary;
    lines.push(
      '',
      `Demo workspace "demo" seeded: ${clients} clients, ${reports} reports, ${facts} provider facts, ` +
        `${scans} AI-visibility scans.`,
      'Demo API key (shown once; create more with `npm run cli -- keys create --workspace demo --name <name>`):',
      `  ${demo.secret}`,
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer ${demo.secret}" ${base}/api/v1/clients`,
      '',
      `Sign in to the web app (settings, keys, webhooks, SSO, MCP consent) at ${base}/app/login:`,
      `  email:    ${DEMO_OWNER_EMAIL}`,
      `  password: ${demo.ownerPassword}   (shown once)`,
    );
  }
  return lines;
}

async function main() {
  const config = configOrExit(process.env);
  const logger = createLogger(config);
  routeConsole(logger);
  await startTracing(config);
  const runtime = await startRuntime(config, logger);
  const demo = config.SEED_DEMO ? await seedDemoIfEmpty(runtime.db.database.prisma, runtime.db.database.pool) : null;

  const server = createNodeServer(runtime.app);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  // Without PUBLIC_BASE_URL (development) the listening address is the service's one origin.
  const listeningHost = ['0.0.0.0', '::', ''].includes(config.HOST)
    ? 'localhost'
    : config.HOST.includes(':')
      ? `[${config.HOST}]`
      : config.HOST;
  runtime.app.publicOrigin.listeningOn(`http://${listeningHost}:${port}`);
  const base = runtime.app.publicOrigin.value;
  logger.info({ port, database: runtime.db.embedded ? 'embedded' : 'external' }, 'listening');
  const metricsServer = config.METRICS_PORT
    ? await serveMetrics(runtime.app.metrics, { port: config.METRICS_PORT, host: config.HOST }, logger)
    : null;

  const lines = startBanner(base, demo);
  // For the person at the terminal, not the log: stdout carries JSON lines only (and the demo secrets stay out of it).
  process.stderr.write(`${lines.join('\n')}\n\n`);

  // Draining: /readyz answers 503 at once; for a fifth of the grace period (at most 5 s) the
  // instance keeps accepting, so a load balancer that polls readiness moves traffic away first;
  // then no new connections, the requests and webhook attempts in flight finish, and the
  // process exits 0 — or, past the grace period, cuts what is left and exits 1.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
    logger.info({ signal, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'draining');
    runtime.app.readiness.drain();
    const deadline = setTimeout(() => {
      logger.error('in-flight work did not finish within the grace period; exiting');
      server.closeAllConnections();
      process.exit(1);
    }, graceMs);
    deadline.unref();
    await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, graceMs / 5)));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await closed;
    metricsServer?.close();
    await runtime.close();
    await tracing.shutdown();
    logger.info('stopped');
    process.exit(0);
  };
  releaseSignals();
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error(`Signalboard failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

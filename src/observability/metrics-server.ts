// GET /metrics on its own port (METRICS_PORT), never on the service's public port: the load
// balancer routes the service's port, operators let Prometheus reach this one. A port in use
// is logged and the service runs on without metrics.
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

export function serveMetrics(
  metrics: Pick<Metrics, 'text' | 'contentType'>,
  where: { port: number; host: string },
  logger: Logger,
): Promise<Server | null> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') return void res.writeHead(404).end();
    metrics.text().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' }).end(text),
      (error: unknown) => {
        logger.error({ err: error }, 'collecting metrics failed');
        res.writeHead(500).end();
      },
    );
  });
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      logger.warn({ err: error, port: where.port }, 'metrics port unavailable; running without /metrics');
      resolve(null);
    });
    server.listen(where.port, where.host, () => {
      const address = server.address();
      logger.info(
        { metricsPort: typeof address === 'object' && address ? address.port : where.port },
        'metrics listening',
      );
      resolve(server);
    });
  });
}

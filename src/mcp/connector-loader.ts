// Loads the MCP connector (its OAuth authorization server and the MCP handler, see connector.ts)
// on its first request, and hands it invalidations once loaded: nothing is cached before that.
import type { Database } from '../db/client.js';
import { schema } from '../graphql/schema.js';
import { clientAddress } from '../http/client-address.js';
import { webhookDepsOf } from '../webhooks/index.js';
import type { AuthorizationServer, AuthorizationServerDeps } from './oauth/authorization-server.js';
import type { createMcpHandler, McpDeps } from './protocol/handler.js';

export type ConnectorDeps = Omit<AuthorizationServerDeps, 'addressOf' | 'pool' | 'prisma'> &
  Pick<McpDeps, 'contextFor' | 'meter' | 'metrics'> & { database: Database };

export interface ConnectorLoader {
  load(): Promise<{ authorizationServer: AuthorizationServer; mcp: ReturnType<typeof createMcpHandler> }>;
  /** A key, plan or OAuth grant changed: the loaded connector's cached token holders go. */
  invalidate(target: string): void;
}

export function createConnectorLoader(deps: ConnectorDeps): ConnectorLoader {
  const { config, database, box, logger } = deps;
  let connector: ReturnType<ConnectorLoader['load']> | null = null;
  const load = () =>
    (connector ??= (async () => {
      const [{ createAuthorizationServer }, { createMcpHandler }] = await Promise.all([
        import('./oauth/authorization-server.js'),
        import('./protocol/handler.js'),
      ]);
      const authorizationServer = createAuthorizationServer({
        config,
        pool: database.pool,
        prisma: database.prisma,
        box,
        sessions: deps.sessions,
        logger,
        notify: deps.notify,
        publicOrigin: deps.publicOrigin,
        addressOf: (req) =>
          clientAddress(
            typeof req.headers['x-forwarded-for'] === 'string' ? req.headers['x-forwarded-for'] : null,
            req.socket.remoteAddress,
            config.TRUST_PROXY,
          ),
      });
      const writes = {
        prisma: database.prisma,
        pool: database.pool,
        webhooks: webhookDepsOf(config, { prisma: database.prisma, pool: database.pool, box }),
      };
      return {
        authorizationServer,
        mcp: createMcpHandler({
          schema,
          authorizationServer,
          writes,
          logger,
          contextFor: deps.contextFor,
          metrics: deps.metrics,
          meter: deps.meter,
          allowedOrigins: config.MCP_ALLOWED_ORIGINS,
          maxResponseBytes: config.RESPONSE_MAX_BYTES,
        }),
      };
    })());
  return {
    load,
    invalidate: (target) =>
      void connector?.then(({ authorizationServer, mcp }) => {
        authorizationServer.invalidate(target);
        mcp.invalidate(target);
      }),
  };
}

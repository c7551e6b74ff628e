// One pg pool per process, shared by Prisma (through the driver adapter) and by the
// hand-written aggregation SQL of the report and AI-visibility engines.
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';
import { parseTimestamptz } from './timestamps.js';
import { parseTextArray, TEXT_ARRAY_OID } from './text-arrays.js';
import { API_SESSION_SETTINGS } from './session-settings.js';
import { EXPORT_POOL_DEFAULTS, type Config } from '../config/index.js';

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  /** The primary: Prisma, key lookups, writes. */
  pool: pg.Pool;
  /** Where the hot read SQL runs: a replica when configured, otherwise the primary pool. */
  readPool: pg.Pool;
  /**
   * Server-side cursors of streaming exports, on the read database: connections of their own
   * (an export holds one for as long as the client reads), and few, so exports never starve the
   * API's pool.
   */
  streamPool: pg.Pool;
  close(): Promise<void>;
}

// DATE columns come back as 'YYYY-MM-DD' strings instead of local-midnight Date objects.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// timestamptz in its common shape by position (a list reads hundreds); any other shape as pg reads it.
const standardTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => parseTimestamptz(value) ?? standardTimestamptz(value));
// text[] (providers, a project's brands, models, locales, domains) by splitting; quoted elements as pg reads them.
const standardTextArray = pg.types.getTypeParser(TEXT_ARRAY_OID);
pg.types.setTypeParser(TEXT_ARRAY_OID, (value) => parseTextArray(value) ?? standardTextArray(value));

/** How long one statement of the API's pools may run before PostgreSQL cancels it. */
export const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * The export pool: its size (EXPORT_POOL_SIZE) and PostgreSQL's bound on a stalled export transaction
 * (EXPORT_IDLE_SECONDS).
 */
export interface ExportPoolSettings {
  size: number;
  idleSeconds: number;
}

export const exportPoolOf = (config: Pick<Config, 'EXPORT_POOL_SIZE' | 'EXPORT_IDLE_SECONDS'>): ExportPoolSettings => ({
  size: config.EXPORT_POOL_SIZE,
  idleSeconds: config.EXPORT_IDLE_SECONDS,
});

/** How export connections show in pg_stat_activity. */
export const EXPORT_APPLICATION_NAME = 'signalboard-export';

function createPool(url: string, poolSize: number, extraSettings = ''): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 2_000,
    // Connections stay open while idle (0: no idle timeout): pg-pool arms a timer on every
    // release to close an idle connection, and such timers keep the requests' garbage alive
    // through scavenges (docs/decisions/data-access.md, "timers off the request path").
    idleTimeoutMillis: 0,
    // A stuck statement is cancelled by the server (statement_timeout), and a server that
    // vanished is found by TCP keepalive, not by pg's client-side query_timeout (a timer per
    // query, with the same cost).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // No parallel workers or JIT (session-settings.ts), and the statement timeout above.
    options: `${API_SESSION_SETTINGS} -c statement_timeout=${STATEMENT_TIMEOUT_MS}${extraSettings}`,
  });
  // Idle clients that lose their server emit 'error'; the pool replaces them.
  pool.on('error', () => {});
  return pool;
}

export function connectDatabase(
  url: string,
  poolSize: number,
  replicaUrl?: string,
  exportPool: ExportPoolSettings = EXPORT_POOL_DEFAULTS,
): Database {
  const pool = createPool(url, poolSize);
  const readPool = replicaUrl ? createPool(replicaUrl, poolSize) : pool;
  // An export reads its cursor a FETCH at a time inside one transaction (workspace-scope.ts):
  // each FETCH is one statement under the same timeout as the API's, and a transaction that
  // stops fetching (a reader the process failed to cut) is ended by PostgreSQL itself.
  const streamPool = createPool(
    replicaUrl ?? url,
    exportPool.size,
    ` -c idle_in_transaction_session_timeout=${exportPool.idleSeconds * 1000}` +
      ` -c application_name=${EXPORT_APPLICATION_NAME}`,
  );
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    readPool,
    streamPool,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
      if (readPool !== pool) await readPool.end().catch(() => {});
      await streamPool.end().catch(() => {});
    },
  };
}

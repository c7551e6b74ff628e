// The variables that bound what one caller, one workspace or the instance may use at once:
// token buckets, requests in flight, row caps, pools, exports, response sizes and ingests.
import { z } from 'zod';
import { bucketSpec, flag } from './values.js';

/**
 * The export pool's defaults (EXPORT_POOL_SIZE, EXPORT_IDLE_SECONDS); db/client.ts uses them when given no
 * configuration.
 */
export const EXPORT_POOL_DEFAULTS = { size: 8, idleSeconds: 60 } as const;

export const LIMIT_FIELDS = {
  RATE_LIMIT_PRO: bucketSpec.prefault('120/2'),
  RATE_LIMIT_AGENCY: bucketSpec.prefault('240/4'),
  RATE_LIMIT_SCALE: bucketSpec.prefault('600/10'),
  /** Answers of 401 one client address may get (a bucket, "<burst>/<per second>"); past it, 429 with Retry-After. */
  AUTH_FAILURES_PER_ADDRESS: bucketSpec.prefault('100/2'),
  /**
   * Each workspace's own bucket, shared by all its API keys and MCP connections, is this many
   * times its plan's bucket per key: more keys or tokens never buy a tenant more than this.
   */
  RATE_LIMIT_WORKSPACE_FACTOR: z.coerce.number().min(1).max(100).default(3),
  /**
   * Requests of one workspace running at once per instance, in each of its two lanes: its API keys
   * and MCP connections together, and its people's web-app sessions together. More wait in line.
   */
  WORKSPACE_MAX_CONCURRENT_REQUESTS: z.coerce.number().int().min(1).max(1000).default(8),
  /** Requests of one workspace that may wait per lane and instance; one more is 429 at once (0: none wait). */
  WORKSPACE_MAX_WAITING_REQUESTS: z.coerce.number().int().min(0).max(10_000).default(256),
  /** How long a waiting request may wait for a share before it is 429 (checked every 0.1 s). */
  WORKSPACE_MAX_WAIT_MS: z.coerce.number().int().min(1).max(60_000).default(10_000),
  RATE_LIMIT_FAIL_OPEN: flag('false'),
  LIST_ROW_CAP: z.coerce.number().int().min(1).max(100_000).default(500),
  METRICS_ROW_CAP: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** Connections of the export pool: CSV/NDJSON exports streaming at once per instance. */
  EXPORT_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(EXPORT_POOL_DEFAULTS.size),
  /**
   * Exports one workspace may stream at once per instance; unset, half the pool. Below the pool, so another workspace
   * always gets one.
   */
  EXPORTS_PER_WORKSPACE: z.coerce.number().int().min(1).max(99).optional(),
  /** Exports one API key may stream at once per instance; unset, half the workspace's share (at least 1). */
  EXPORTS_PER_KEY: z.coerce.number().int().min(1).max(99).optional(),
  /**
   * A request whose headers and body have not all arrived this long after it began is answered
   * 408 and its connection closed (Node's requestTimeout, checked every 2 s: 408 within 2 s more).
   */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /** After a 429 with Retry-After, its connection is not read again for that long, at most this (0: never paused). */
  REFUSED_CONNECTION_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** A response whose client accepts no byte for this long is cut (its cursor closed, its connection freed). */
  RESPONSE_STALL_SECONDS: z.coerce.number().positive().max(600).default(15),
  /**
   * Unsent bytes that responses whose clients stopped taking them may hold together per instance; past it the largest
   * are cut.
   */
  RESPONSE_UNSENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(64 * 1024 * 1024),
  /**
   * The same bound for one workspace's responses (at most the instance's): half of it by default, so one tenant
   * cannot hold it all.
   */
  RESPONSE_UNSENT_WORKSPACE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(32 * 1024 * 1024),
  /**
   * PostgreSQL's backstop on the export pool (idle_in_transaction_session_timeout): an export
   * transaction that fetches nothing for this long is ended by the server, whatever the process does.
   */
  EXPORT_IDLE_SECONDS: z.coerce.number().positive().max(3600).default(EXPORT_POOL_DEFAULTS.idleSeconds),
  /**
   * The most a /graphql query may cost before it runs (graphql/cost.ts): each field 1, each list's
   * selection counted at its requested size or its cap. v1 and MCP run fixed operations whose
   * sizes their own parameter checks bound (docs/limits.md, "Answers").
   */
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(2_000_000),
  /** The most one JSON answer of /graphql, v1 or an MCP tool may hold (exports stream and are not counted). */
  RESPONSE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  /** Bytes of computed report data and metrics kept per instance (0 turns the cache off). */
  DATA_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  INGEST_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Ingests (POST /internal/ingest/*) running at once per instance; one more is 429. Each holds its body while it is
   * checked (≤ 64 MiB) and the records of its valid lines.
   */
  INGEST_MAX_CONCURRENT: z.coerce.number().int().min(1).max(64).default(4),
  /**
   * Of those, ingests naming one workspace's projects or clients; unset, half the instance's. Below it, so another
   * workspace always gets one.
   */
  INGEST_MAX_CONCURRENT_PER_WORKSPACE: z.coerce.number().int().min(1).max(63).optional(),
  /**
   * Seconds of grace for an ingest's body that has not named its workspace (its first line complete, naming a known
   * project or client): past them it must have arrived at 64 KB/s on average (doors/ingest.ts). Until it names one it
   * holds one of the instance's ingests without counting against any workspace's share.
   */
  INGEST_NAMING_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
};

// Environment is parsed once; a bad value stops the process with a message naming it.
import { z } from 'zod';
import { decodeKey } from '../secrets/secret-box.js';
import { LIMIT_FIELDS } from './limits.js';
import { DEFAULT_RETRY_SCHEDULE, flag, retrySchedule } from './values.js';

export { DEFAULT_RETRY_SCHEDULE } from './values.js';
export { EXPORT_POOL_DEFAULTS } from './limits.js';

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    DATABASE_URL: z
      .string()
      .url()
      .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /** Optional read replica for the heavy read paths (lists, report data, metrics). */
    DATABASE_REPLICA_URL: z
      .string()
      .url()
      .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /**
     * Statements one workspace may run at once on the read pool; unset, half of DATABASE_POOL_SIZE. Below the pool, so
     * another workspace always gets a connection.
     */
    DATABASE_STATEMENTS_PER_WORKSPACE: z.coerce.number().int().min(1).max(200).optional(),
    EMBEDDED_PG_DIR: z.string().default('.data/postgres'),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(54329),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PUBLIC_BASE_URL: z.string().url().optional(),
    REDIS_URL: z.string().url().optional(),
    ...LIMIT_FIELDS,
    /** Demo data on an empty database; unset means on in development and test, off in production. */
    SEED_DEMO: z.enum(['true', 'false']).optional(),
    /** 32 bytes (64 hex characters or base64) sealing stored webhook and OIDC client secrets. */
    APP_SECRET_KEY: z
      .string()
      .refine(
        (text) => decodeKey(text) !== null,
        'must be 32 bytes as 64 hex characters or base64 (e.g. `openssl rand -base64 32`)',
      )
      .optional(),
    WEBHOOK_WORKER: flag('true'),
    WEBHOOK_ALLOW_HTTP: flag('false'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: flag('false'),
    WEBHOOK_RETRY_SCHEDULE: retrySchedule.prefault(DEFAULT_RETRY_SCHEDULE),
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(15),
    /** Deliveries in flight per worker process, over all endpoints. */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
    /** Deliveries in flight to one endpoint, over all workers: one slow endpoint holds at most this many slots. */
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
    /**
     * Deliveries in flight for one workspace, over all workers: well below WEBHOOK_CONCURRENCY, so another workspace
     * always finds a free slot.
     */
    WEBHOOK_WORKSPACE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
    WEBHOOK_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(30),
    /** host:port of the DNS server used to verify single sign-on domains (default: the system's). */
    DNS_RESOLVER: z
      .string()
      .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, 'expected host:port, e.g. 1.1.1.1:53')
      .optional(),
    OIDC_ALLOW_HTTP_ISSUERS: flag('false'),
    /** Identity providers and client metadata documents on private, loopback or non-443 addresses (tests only). */
    OUTBOUND_ALLOW_PRIVATE_TARGETS: flag('false'),
    /** smtp:// or smtps:// server for password-reset mail; unset, development logs the link instead. */
    SMTP_URL: z
      .string()
      .url()
      .refine((url) => /^smtps?:\/\//.test(url), 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().default('Signalboard <no-reply@signalboard.localhost>'),
    /** OpenTelemetry: traces are exported over OTLP/HTTP to this endpoint; unset, no tracing. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
    /**
     * Head sampling: by default one in a hundred of the traces this service starts (10 a second at
     * 1 000 requests a second), and every request whose caller's traceparent is sampled, so that
     * tracing stays within the instrumentation's budget (docs/decisions/instrumentation-budget.md).
     */
    OTEL_TRACES_SAMPLER: z
      .enum([
        'always_on',
        'always_off',
        'traceidratio',
        'parentbased_always_on',
        'parentbased_always_off',
        'parentbased_traceidratio',
      ])
      .default('parentbased_traceidratio'),
    /** The ratio of the traceidratio samplers (ignored by the others). */
    OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(0.01),
    OTEL_SERVICE_NAME: z.string().min(1).default('signalboard'),
    /** Prometheus /metrics on this port only (0 = off). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    /** On SIGTERM: not ready at once, in-flight requests and webhook attempts finish within this time, then exit 0. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(25),
    /**
     * Origins of browser-based MCP clients allowed to call /mcp (comma-separated, e.g.
     * https://inspector.example.com): CORS with the bearer token only, never credentials (cookies).
     */
    MCP_ALLOWED_ORIGINS: z
      .string()
      .transform((text) =>
        text
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .refine(
        (origins) => origins.every((origin) => /^https?:\/\/[^/?#\s]+$/.test(origin)),
        'must be comma-separated origins such as https://app.example.com (no path)',
      )
      .prefault(''),
    /** Behind a reverse proxy: take the client address (sign-in throttling) from the last X-Forwarded-For entry. */
    TRUST_PROXY: flag('false'),
  })
  .refine((config) => config.NODE_ENV !== 'production' || config.APP_SECRET_KEY, {
    path: ['APP_SECRET_KEY'],
    message: 'is required in production',
  })
  .refine((config) => config.NODE_ENV !== 'production' || config.PUBLIC_BASE_URL, {
    path: ['PUBLIC_BASE_URL'],
    message: 'is required in production (the OAuth issuer and every absolute link come from it)',
  })
  .refine((config) => !config.PUBLIC_BASE_URL || /^https?:\/\/[^/?#]+\/?$/.test(config.PUBLIC_BASE_URL), {
    path: ['PUBLIC_BASE_URL'],
    message: 'must be an origin such as https://signalboard.example.com (no path)',
  })
  .transform(
    ({
      SEED_DEMO,
      EXPORTS_PER_WORKSPACE,
      EXPORTS_PER_KEY,
      DATABASE_STATEMENTS_PER_WORKSPACE,
      INGEST_MAX_CONCURRENT_PER_WORKSPACE,
      ...config
    }) => {
      const perWorkspace = EXPORTS_PER_WORKSPACE ?? Math.floor(config.EXPORT_POOL_SIZE / 2);
      return {
        ...config,
        DATABASE_STATEMENTS_PER_WORKSPACE:
          DATABASE_STATEMENTS_PER_WORKSPACE ?? Math.max(1, Math.floor(config.DATABASE_POOL_SIZE / 2)),
        SEED_DEMO: SEED_DEMO === undefined ? config.NODE_ENV !== 'production' : SEED_DEMO === 'true',
        EXPORTS_PER_WORKSPACE: perWorkspace,
        EXPORTS_PER_KEY: EXPORTS_PER_KEY ?? Math.max(1, Math.floor(perWorkspace / 2)),
        INGEST_MAX_CONCURRENT_PER_WORKSPACE:
          INGEST_MAX_CONCURRENT_PER_WORKSPACE ?? Math.max(1, Math.floor(config.INGEST_MAX_CONCURRENT / 2)),
      };
    },
  )
  .refine(
    (config) => config.DATABASE_POOL_SIZE === 1 || config.DATABASE_STATEMENTS_PER_WORKSPACE < config.DATABASE_POOL_SIZE,
    {
      path: ['DATABASE_STATEMENTS_PER_WORKSPACE'],
      message: 'must be below DATABASE_POOL_SIZE, so that another workspace always gets a connection',
    },
  )
  .refine((config) => config.EXPORTS_PER_WORKSPACE < config.EXPORT_POOL_SIZE, {
    path: ['EXPORTS_PER_WORKSPACE'],
    message: 'must be below EXPORT_POOL_SIZE, so that another workspace always gets an export',
  })
  .refine(
    (config) =>
      config.INGEST_MAX_CONCURRENT === 1 || config.INGEST_MAX_CONCURRENT_PER_WORKSPACE < config.INGEST_MAX_CONCURRENT,
    {
      path: ['INGEST_MAX_CONCURRENT_PER_WORKSPACE'],
      message: 'must be below INGEST_MAX_CONCURRENT, so that another workspace always gets one',
    },
  )
  .refine((config) => config.EXPORTS_PER_KEY <= config.EXPORTS_PER_WORKSPACE, {
    path: ['EXPORTS_PER_KEY'],
    message: 'must not exceed EXPORTS_PER_WORKSPACE',
  })
  .refine((config) => config.EXPORT_IDLE_SECONDS > config.RESPONSE_STALL_SECONDS, {
    path: ['EXPORT_IDLE_SECONDS'],
    message: 'must exceed RESPONSE_STALL_SECONDS (it is the backstop behind the stall cut)',
  });

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

/** For process entry points: the configuration, or a message naming the bad variables and exit 78 (EX_CONFIG). */
export function configOrExit(env: Record<string, string | undefined>): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(78);
  }
}

// What every CLI command shares: the configuration, the database opened on first use, the
// invalidation message to every instance, the acting user, and output as text or --json.
import type { Config } from '../config/index.js';
import type { ZodRawShape } from 'zod/v4';
import { ApiError, UsageError, withinBounds, type IntBounds } from '../errors/index.js';
import { commandInput, type CommandInput } from '../errors/command-input.js';
import { openDatabase, type ResolvedDatabase } from '../db/bootstrap.js';
import { INVALIDATION_CHANNEL } from '../auth/invalidation.js';
import { resolveSecretBox } from '../secrets/app-secret-key.js';
import { webhookDepsOf, type WebhookDeps } from '../webhooks/endpoints.js';
import type { Actor } from '../workspaces/actor.js';

export interface JsonOption {
  json?: boolean;
}

const state: { config: Config | null; opened: ResolvedDatabase | null } = { config: null, opened: null };

export function useConfig(config: Config) {
  state.config = config;
}

export function config(): Config {
  if (!state.config) throw new Error('the CLI configuration is not read yet');
  return state.config;
}

/** The database a command uses, in one line for stderr (never the password). */
export function databaseLine(
  resolved: Pick<ResolvedDatabase, 'url' | 'embedded'>,
  settings: Pick<Config, 'EMBEDDED_PG_DIR' | 'EMBEDDED_PG_PORT'>,
): string {
  if (!resolved.embedded) {
    const url = new URL(resolved.url);
    const user = url.username ? `${url.username}@` : '';
    return `database: ${url.protocol}//${user}${url.host}${url.pathname} (DATABASE_URL)`;
  }
  const { port, shared } = resolved.embedded;
  const where = `embedded PostgreSQL in ${settings.EMBEDDED_PG_DIR} on 127.0.0.1:${port}`;
  if (!shared) return `database: ${where} (started for this command; no server runs it)`;
  // The server was started with another EMBEDDED_PG_PORT: the CLI found its port in the data directory.
  const mismatch =
    port === settings.EMBEDDED_PG_PORT ? '' : `; EMBEDDED_PG_PORT here says ${settings.EMBEDDED_PG_PORT}`;
  return `database: ${where} (the running server's${mismatch})`;
}

/** The database, opened (and migrated) on first use; which one goes to stderr. */
export async function opened(): Promise<ResolvedDatabase> {
  if (!state.opened) {
    state.opened = await openDatabase(config());
    process.stderr.write(`${databaseLine(state.opened, config())}\n`);
  }
  return state.opened;
}

export const db = async () => (await opened()).database;

export async function closeDatabase() {
  const { opened } = state;
  if (!opened) return;
  state.opened = null;
  await opened.database.close();
  await opened.embedded?.stop();
}

export async function webhookDeps(): Promise<WebhookDeps> {
  const { prisma, pool } = await db();
  return webhookDepsOf(config(), { prisma, pool, box: resolveSecretBox(config()) });
}

/** What `read` returns; a refusal of the input (a 400 at the other doors) is the CLI's usage error. */
function asUsage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof ApiError ? new UsageError(error.message) : error;
  }
}

/** A whole-number option read against the IntBounds its list declares, by the check GraphQL arguments use. */
export const boundedOption = (text: string | undefined, bounds: IntBounds, flag: string): number =>
  asUsage(() => withinBounds(text === undefined ? undefined : Number(text), bounds, flag));

/** A command's options parsed with the input shape its admin command declares (errors/command-input.ts). */
export const cliInput = <Shape extends ZodRawShape>(shape: Shape, value: unknown): CommandInput<Shape> =>
  asUsage(() => commandInput(shape, value));

export const AS_OPTION = ['--as <email>', 'the acting user; must be an owner or admin'] as const;
export const actorOf = (options: { as?: string }): Actor => ({ email: options.as ?? null });

export async function notify(target: string) {
  if (config().REDIS_URL) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(config().REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await redis.publish(INVALIDATION_CHANNEL, target);
    await redis.quit();
  } else {
    await (await db()).pool.query('SELECT pg_notify($1, $2)', [INVALIDATION_CHANNEL, target]);
  }
}

export function output(options: JsonOption, value: unknown, human: string) {
  process.stdout.write(options.json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`);
}

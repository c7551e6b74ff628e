// Builds the real app in memory against a real PostgreSQL; requests go through app.fetch.
import pino from 'pino';
import { parseConfig, type Config } from '../../src/config/index.js';
import { connectDatabase, exportPoolOf, type Database } from '../../src/db/client.js';
import { createApp, type App } from '../../src/app.js';
import { createApiKeyAuthenticator, type ApiKeyAuthenticator } from '../../src/auth/api-keys.js';
import { memoryRateLimitStore, type RateLimitStore } from '../../src/auth/rate-limit-store.js';
import { createApiKey } from '../../src/auth/key-management.js';
import type { Scope } from '../../src/auth/principal.js';
import { createWorkspace } from '../../src/workspaces/service.js';
import { newId } from '../../src/db/ids.js';
import { createTestDatabase } from './database.js';
import { TEST_APP_SECRET_KEY } from './secrets.js';
import { createSecretBox, decodeKey, type SecretBox } from '../../src/secrets/secret-box.js';

export interface TestApp {
  app: App;
  config: Config;
  box: SecretBox;
  database: Database;
  url: string;
  authenticator: ApiKeyAuthenticator;
  get(path: string, key?: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: { store?: RateLimitStore; url?: string; replicaUrl?: string; logger?: pino.Logger } = {},
): Promise<TestApp> {
  const url = options.url ?? (await createTestDatabase());
  const config = parseConfig({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    APP_SECRET_KEY: TEST_APP_SECRET_KEY,
    ...env,
  });
  const database = connectDatabase(url, 5, options.replicaUrl, exportPoolOf(config));
  const authenticator = createApiKeyAuthenticator(database.pool);
  const box = createSecretBox(decodeKey(config.APP_SECRET_KEY!)!);
  const app = createApp({
    config,
    database,
    authenticator,
    rateLimitStore: options.store ?? memoryRateLimitStore(),
    logger: options.logger ?? pino({ level: 'silent' }),
    box,
  });
  return {
    app,
    config,
    box,
    database,
    url,
    authenticator,
    get: (path, key, init = {}) =>
      app.fetch(
        new Request(`http://test.local${path}`, {
          ...init,
          headers: {
            ...(key ? { authorization: `Bearer ${key}` } : {}),
            ...(init.headers as Record<string, string> | undefined),
          },
        }),
      ),
    close: () => database.close(),
  };
}

let counter = 0;

/** A workspace with an owner and one API key; returns ids and the key's secret. */
export async function createKeyedWorkspace(
  database: Database,
  options: { plan?: string; scopes?: Scope[]; expiresAt?: Date; timezone?: string } = {},
) {
  const slug = `ws-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  const workspace = await createWorkspace(database.prisma, {
    slug,
    plan: options.plan ?? 'agency',
    ...(options.timezone ? { timezone: options.timezone } : {}),
  });
  const email = `owner-${slug}@example.test`;
  const user = await database.prisma.user.create({ data: { id: newId('user'), email, name: 'Owner' } });
  await database.prisma.membership.create({
    data: { id: newId('membership'), workspaceId: workspace.id, userId: user.id, role: 'owner' },
  });
  const key = await createApiKey(database.prisma, {
    workspaceId: workspace.id,
    name: 'test',
    actor: { email },
    ...(options.scopes ? { scopes: options.scopes } : {}),
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  });
  return { workspace, ownerEmail: email, key };
}

export async function json(response: Response): Promise<any> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (status ${response.status}): ${text.slice(0, 200)}`);
  }
}

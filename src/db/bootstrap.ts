// Resolves the database: DATABASE_URL when set, otherwise an embedded PostgreSQL under
// EMBEDDED_PG_DIR. Migrations are applied before anything uses it.
import type { Config } from '../config/index.js';
import { connectDatabase, exportPoolOf, type Database } from './client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.js';
import { migrate, type MigrationResult } from './migrate.js';

export interface ResolvedDatabase {
  url: string;
  embedded: EmbeddedDatabase | null;
  database: Database;
  migrations: MigrationResult;
}

export async function openDatabase(config: Config): Promise<ResolvedDatabase> {
  const embedded = config.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({ dataDir: config.EMBEDDED_PG_DIR, port: config.EMBEDDED_PG_PORT });
  const url = config.DATABASE_URL ?? embedded!.url;
  let migrations: MigrationResult;
  try {
    migrations = await migrate(url);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return {
    url,
    embedded,
    migrations,
    database: connectDatabase(url, config.DATABASE_POOL_SIZE, config.DATABASE_REPLICA_URL, exportPoolOf(config)),
  };
}

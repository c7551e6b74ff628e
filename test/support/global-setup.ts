// One embedded PostgreSQL cluster for the whole run (unless DATABASE_URL points at one).
// A template database holds the migrated schema; each test file gets its own copy.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let embedded: EmbeddedDatabase | null = null;
let dataDir: string | null = null;

export async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    dataDir = mkdtempSync(path.join(tmpdir(), 'signalboard-test-pg-'));
    // When run as root, PostgreSQL runs as a dedicated user that must reach this folder.
    chmodSync(dataDir, 0o755);
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'data'),
      port: await freePort(),
      database: 'signalboard_template',
      persistent: false,
    });
    adminUrl = embedded.url;
  } else {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS signalboard_template WITH (FORCE)');
    await admin.query('CREATE DATABASE signalboard_template');
    await admin.end();
    adminUrl = withDatabase(adminUrl, 'signalboard_template');
  }
  await migrate(adminUrl);
  project.provide('adminDatabaseUrl', adminUrl);
}

export async function teardown() {
  await embedded?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

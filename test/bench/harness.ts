// Shared pieces of the benchmarks: a persistent embedded PostgreSQL for bench data, server
// processes, a closed-loop load generator with exact percentiles, and a table printer.
import { freePort } from '../support/global-setup.js';
import { imageNodeOptions } from '../support/docker-image.js';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import autocannon from 'autocannon';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { build, buildIsStale } from '../../scripts/start.mjs';
import { hashPassword } from '../../src/sessions/passwords.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';

export { startOtlpReceiver } from '../support/otlp-receiver.js';

export const root = path.resolve(import.meta.dirname, '../..');
export const BENCH_APP_SECRET_KEY = Buffer.alloc(32, 42).toString('base64');

export async function benchDatabase(): Promise<EmbeddedDatabase> {
  if (process.env.BENCH_DATABASE_URL) {
    await migrate(process.env.BENCH_DATABASE_URL);
    return {
      url: process.env.BENCH_DATABASE_URL,
      port: Number(new URL(process.env.BENCH_DATABASE_URL).port || 5432),
      shared: true,
      stop: async () => {},
    };
  }
  mkdirSync(path.join(root, '.data'), { recursive: true });
  // BENCH_PG_PORT: another checkout's benchmark database may hold the default port.
  const database = await startEmbeddedPostgres({
    dataDir: path.join(root, '.data/bench-postgres'),
    port: Number(process.env.BENCH_PG_PORT ?? 54339),
    database: 'bench',
  });
  await migrate(database.url);
  return database;
}

export interface ServerHandle {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The service as it runs in production: the compiled build (built first when stale), in one
 * process whose pid is the one to measure. Returns how long it took from spawn to listening.
 */
/**
 * BENCH_NODE_ARGS: Node flags for every service a benchmark starts (e.g. "--max-old-space-size=256"), to measure their
 * trade.
 */
const BENCH_NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

export async function startService(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ServerHandle & { startMs: number }> {
  if (buildIsStale()) build();
  const started = performance.now();
  const handle = await startProcess([...BENCH_NODE_ARGS, ...nodeArgs, 'dist/server.js'], env, 'node');
  return { ...handle, startMs: performance.now() - started };
}

/** The bare node:http + pg server (baseline-server.ts) the service is measured against. */
export const startBaselineServer = (env: Record<string, string>) =>
  startProcess(['--import', 'tsx', 'test/bench/baseline-server.ts'], env, 'node');

/** A closed-loop task: one GET, its body read to the end; true on 200. */
export const fetchCase = (url: string, headers: Record<string, string>) => async () => {
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return response.status === 200;
};

/**
 * Starts a Node process that prints a line with "port":<n> once it listens, with the image's Node
 * options. `launcher`: a program that runs Node in its own process (valgrind), so the pid stays the one to measure.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  command: 'tsx' | 'node' = 'tsx',
  launcher: string[] = [],
): Promise<ServerHandle> {
  // `node --import tsx` keeps the server in one process, so its pid is the one to measure.
  // Production requires PUBLIC_BASE_URL (the one origin): the port is chosen here so the two agree.
  const listenPort = String(await freePort());
  // Metrics on, each service on a port of its own (benchmarks measure the service as it runs).
  const metricsPort = String(await freePort());
  const program = command === 'node' ? process.execPath : path.join(root, 'node_modules/.bin/tsx');
  const child: ChildProcess = spawn(
    launcher[0] ?? program,
    [...launcher.slice(1), ...(launcher.length ? [program] : []), ...args],
    {
      cwd: root,
      // Production requires APP_SECRET_KEY; the benchmarks' own fixed one.
      env: {
        ...process.env,
        NODE_OPTIONS: imageNodeOptions(),
        HOST: '127.0.0.1',
        PORT: listenPort,
        PUBLIC_BASE_URL: `http://127.0.0.1:${listenPort}`,
        METRICS_PORT: metricsPort,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        APP_SECRET_KEY: BENCH_APP_SECRET_KEY,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  // The start-up banner goes to stderr (stdout is JSON log lines only, and at LOG_LEVEL=warn none says it listens).
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)|"port":(\d+)/.exec(output);
      if (match) resolve(Number(match[1] ?? match[2]));
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', onOutput);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
  child.stdout!.resume();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  label: string;
  requests: number;
  errors: number;
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Samples {
  latencies: number[];
  errors: number;
  seconds: number;
}

function summarize(label: string, samples: Samples): LoadResult {
  const sorted = [...samples.latencies].sort((a, b) => a - b);
  return {
    label,
    requests: sorted.length,
    errors: samples.errors,
    seconds: samples.seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

/** Runs `task` from `concurrency` loops for `durationMs`; latencies in milliseconds. */
export async function closedLoop(
  label: string,
  task: () => Promise<boolean>,
  options: { concurrency: number; durationMs: number; warmupMs?: number },
): Promise<LoadResult> {
  return summarize(label, await sample(task, options));
}

/**
 * Measures several cases in alternating rounds (A B A B …) and merges each case's samples,
 * so that the drift of a shared, noisy machine hits every case alike.
 */
export async function alternate(
  cases: { label: string; task: () => Promise<boolean> }[],
  options: { concurrency: number; durationMs: number; rounds?: number },
): Promise<LoadResult[]> {
  const rounds = options.rounds ?? 3;
  const merged = cases.map(() => ({ latencies: [] as number[], errors: 0, seconds: 0 }));
  for (let round = 0; round < rounds; round++) {
    for (const [index, { task }] of cases.entries()) {
      const samples = await sample(task, {
        concurrency: options.concurrency,
        durationMs: options.durationMs / rounds,
        warmupMs: round === 0 ? 1_000 : 200,
      });
      merged[index]!.latencies.push(...samples.latencies);
      merged[index]!.errors += samples.errors;
      merged[index]!.seconds += samples.seconds;
    }
  }
  return cases.map(({ label }, index) => summarize(label, merged[index]!));
}

async function sample(
  task: () => Promise<boolean>,
  options: { concurrency: number; durationMs: number; warmupMs?: number },
): Promise<Samples> {
  const warmupEnd = Date.now() + (options.warmupMs ?? 1_000);
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (Date.now() < warmupEnd) await task();
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = Date.now() + options.durationMs;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const ok = await task().catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

/** An answer as the socket client read it. */
export interface RawAnswer {
  status: number;
  body: Buffer;
}

/**
 * A load generator's HTTP/1.1 client over keep-alive sockets, one per request in flight: the
 * request's bytes are built once and each answer is read by its Content-Length. fetch cost the
 * generator 200–450 µs per request on the same two cores as the service — more for a POST and a
 * larger answer, so it billed itself to MCP (test/bench/README.md, "2026-11-24").
 */
export function socketClient(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const idle: net.Socket[] = [];
  const open = new Set<net.Socket>();
  const connect = () => {
    const socket = net.connect(Number(port), hostname).setNoDelay(true);
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    return socket;
  };
  function exchange(socket: net.Socket, request: Buffer): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      let received: Buffer = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        received = received.length ? Buffer.concat([received, chunk]) : chunk;
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = received.subarray(0, headEnd).toString('latin1');
        const length = /\r\ncontent-length: *(\d+)/i.exec(head);
        if (!length) return fail(new Error(`an answer without Content-Length: ${head.split('\r\n')[0]}`));
        if (received.length < headEnd + 4 + Number(length[1])) return;
        socket.off('data', onData).off('error', fail).off('close', fail);
        resolve({
          status: Number(head.slice(9, 12)),
          body: received.subarray(headEnd + 4, headEnd + 4 + Number(length[1])),
        });
      };
      const fail = (error?: unknown) => {
        socket.off('data', onData).off('error', fail).off('close', fail);
        open.delete(socket);
        socket.destroy();
        reject(error instanceof Error ? error : new Error('the connection closed before the answer'));
      };
      socket.on('data', onData).on('error', fail).on('close', fail);
      socket.write(request);
    });
  }
  return {
    /** A request's bytes, built once and sent as often as wanted. */
    prepare(method: string, path: string, headers: Record<string, string>, body?: string): Buffer {
      const lines = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
    },
    async send(request: Buffer): Promise<RawAnswer> {
      const reused = idle.pop();
      // The server may close an idle connection (keep-alive timeout) as it is reused: once more on a new one.
      const answer = reused && !reused.destroyed ? await exchange(reused, request).catch(() => null) : null;
      const socket = answer ? reused! : connect();
      const sent = answer ?? (await exchange(socket, request));
      idle.push(socket);
      return sent;
    },
    close() {
      for (const socket of open) socket.destroy();
    },
  };
}

export function printTable(title: string, rows: LoadResult[]) {
  const format = (value: number) => value.toFixed(2);
  console.log(
    `\n${title}  (${new Date().toISOString().slice(0, 10)}, ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version})`,
  );
  console.table(
    rows.map((row) => ({
      case: row.label,
      'req/s': Math.round(row.requests / row.seconds),
      'p50 ms': format(row.p50),
      'p95 ms': format(row.p95),
      'p99 ms': format(row.p99),
      errors: row.errors,
    })),
  );
}

export function ratio(ours: LoadResult, baseline: LoadResult) {
  return { p50: ours.p50 / baseline.p50, p95: ours.p95 / baseline.p95, p99: ours.p99 / baseline.p99 };
}

/** Runs a benchmark's main function and exits non-zero with its error. */
export function runBench(main: () => Promise<void>) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

/** The v1 endpoints bench:api measures against the bare server, in its order (bench:memory follows it). */
export const v1BenchCases = (reportId: string) =>
  [
    ['GET /clients', '/api/v1/clients'],
    ['GET /reports', '/api/v1/reports'],
    ['GET /reports/{id}', `/api/v1/reports/${reportId}`],
    ['GET /ai-visibility/projects', '/api/v1/ai-visibility/projects'],
  ] as const;

/** The workspace of the API throughput and soak benchmarks: 25 clients, seeded once. */
export async function benchApiWorkspace(database: Database) {
  const existing = await database.prisma.workspace.findUnique({ where: { slug: 'bench-api' } });
  if (existing) return existing;
  const workspace = await database.prisma.workspace.create({
    data: { id: newId('workspace'), slug: 'bench-api', name: 'Bench API', plan: 'scale', timezone: 'UTC' },
  });
  await seedWorkspace(database.prisma, database.pool, { workspaceId: workspace.id, days: 30, clients: 25 });
  return workspace;
}

/** The API benchmarks' workspace with its overview report, a project and a fresh key. */
export async function benchApiFixtures(database: Database) {
  const workspace = await benchApiWorkspace(database);
  const report = await database.prisma.report.findFirstOrThrow({
    where: { workspaceId: workspace.id, name: { contains: 'overview' } },
  });
  const project = await database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  const key = await createApiKey(database.prisma, {
    workspaceId: workspace.id,
    name: `bench ${Date.now()}`,
    actor: { email: null },
  });
  return { workspace, report, project, key };
}

/** User + system CPU of a process in milliseconds (clock ticks of 10 ms, Linux's USER_HZ). */
export const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

export interface Run {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** One autocannon run at 50 connections for half of `seconds`; `rate` caps the requests per second over all of them. */
export async function loadRun(
  seconds: number,
  server: ServerHandle,
  path: string,
  headers: Record<string, string>,
  expectStatus = 200,
  rate?: number,
): Promise<Run> {
  const result = await autocannon({
    url: `${server.baseUrl}${path}`,
    connections: 50,
    duration: seconds / 2,
    headers,
    ...(rate ? { overallRate: rate } : {}),
  });
  const unexpected =
    expectStatus === 304 ? result.requests.total - (result.statusCodeStats?.['304']?.count ?? 0) : result.non2xx;
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: unexpected + result.errors,
  };
}

/**
 * Load on a service before it is measured (`BENCH_WARMUP_SECONDS`, 20): V8 is still optimising
 * the service's hot code after a few seconds (about 1 000 optimisations in the first 10 s of
 * load, 8–13 in the third; test/bench/README.md, "2026-11-25, later").
 */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
export const warmUp = (server: ServerHandle, path: string, headers: Record<string, string>) =>
  loadRun(2 * WARMUP_SECONDS, server, path, headers);

export const mergeRuns = (runs: Run[]) => ({
  rps: runs.reduce((s, r) => s + r.requests, 0) / runs.reduce((s, r) => s + r.seconds, 0),
  p50: Math.max(...runs.map((r) => r.p50)),
  p99: Math.max(...runs.map((r) => r.p99)),
  non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
});

/** Two cases measured in alternating rounds after a discarded warm-up of each. */
export async function compareRuns(a: () => Promise<Run>, b: () => Promise<Run>) {
  await a();
  await b();
  const runs = { a: [] as Run[], b: [] as Run[] };
  for (let round = 0; round < 2; round++) {
    runs.a.push(await a());
    runs.b.push(await b());
  }
  return { a: mergeRuns(runs.a), b: mergeRuns(runs.b) };
}

const MCP_PERSON = { email: 'bench-mcp@example.test', password: 'bench password for mcp' };

/**
 * An MCP access token for a workspace, through the whole OAuth flow against a running service
 * (an owner signs in and consents to what `path` asks for); the workspace's write switch is
 * turned on so that write tools count too.
 */
export async function mcpAccessToken(
  database: Database,
  baseUrl: string,
  workspaceId: string,
  path: string,
): Promise<string> {
  const user =
    (await database.prisma.user.findUnique({ where: { email: MCP_PERSON.email } })) ??
    (await database.prisma.user.create({
      data: {
        id: newId('user'),
        email: MCP_PERSON.email,
        name: 'Bench',
        passwordHash: await hashPassword(MCP_PERSON.password),
      },
    }));
  await database.prisma.membership.upsert({
    where: { workspaceId_userId: { workspaceId, userId: user.id } },
    create: { id: newId('membership'), workspaceId, userId: user.id, role: 'owner' },
    update: {},
  });
  await database.prisma.workspace.update({ where: { id: workspaceId }, data: { mcpWriteActions: true } });
  const login = await fetch(`${baseUrl}/app/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email: MCP_PERSON.email, password: MCP_PERSON.password }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  // The persistent bench database remembers registrations: repeated runs from loopback would meet the hourly limit.
  await database.pool.query("DELETE FROM attempt_counters WHERE key LIKE 'oauth:register:%'");
  const provider = new TestOAuthProvider({ cookie, workspaceId }, 'Benchmark');
  await (await connectMcp(baseUrl, provider, path)).close();
  return provider.saved!.access_token;
}

/**
 * V8 maps each page of its heap on its own, at this size (Node is built without pointer
 * compression, so there is no reserved cage around them); malloc's arenas and V8's code range
 * are larger mappings. Two pages the kernel merged would count as "other anonymous".
 */
const V8_PAGE_BYTES = 256 * 1024;
/** Both servers run the Node that runs this script (startProcess). */
const NODE_BINARY = realpathSync(process.execPath);

const mbOfKb = (kb: number) => Math.round(kb / 1024);

/** A size field of /proc/<pid>/status in MB: VmRSS (resident now) or VmHWM (the most it has been resident). */
export function statusMb(pid: number, field: 'VmRSS' | 'VmHWM') {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return mbOfKb(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]));
}

/** The resident set by part, in MB, with the high-water mark the kernel keeps (VmHWM). */
export function residentParts(pid: number) {
  const parts = { 'node binary': 0, 'V8 heap pages': 0, 'malloc main heap': 0, 'other anonymous': 0, files: 0 };
  let part: keyof typeof parts = 'files';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const [, start, end, name] = mapping as unknown as [string, string, string, string];
      const bytes = parseInt(end, 16) - parseInt(start, 16);
      part =
        name === ''
          ? bytes === V8_PAGE_BYTES
            ? 'V8 heap pages'
            : 'other anonymous'
          : name === '[heap]'
            ? 'malloc main heap'
            : name === NODE_BINARY
              ? 'node binary'
              : name.startsWith('[')
                ? 'other anonymous'
                : 'files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) parts[part] += Number(rss[1]);
  }
  return {
    'peak (VmHWM)': statusMb(pid, 'VmHWM'),
    RSS: statusMb(pid, 'VmRSS'),
    ...Object.fromEntries(Object.entries(parts).map(([name, kb]) => [name, mbOfKb(kb)])),
  };
}

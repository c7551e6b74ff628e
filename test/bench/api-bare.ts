// BENCH_MODE=bare npm run bench:api — the engine's own cost: the service (compiled build) against the
// tuned bare server (baseline-server.ts: named statements, no JIT, no parallel workers, a connection per
// load connection) on the same database, 20 connections, alternated rounds. The per-workspace shares are
// lifted (WORKSPACE_MAX_CONCURRENT_REQUESTS=1000, DATABASE_STATEMENTS_PER_WORKSPACE=9), so their
// bookkeeping runs on every request but never makes one wait. "Cached" is the service as configured;
// "cold" a second instance with its data cache off (DATA_CACHE_MAX_BYTES=0). Each instance's resident set is
// read from /proc: at rest after start, and its high-water mark (VmHWM) after each case and at the end,
// against issue 50's 200 MB.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { connectDatabase } from '../../src/db/client.js';
import { addDays } from '../../src/dates/civil-date.js';
import {
  benchApiFixtures,
  benchDatabase,
  cpuMs,
  residentParts,
  root,
  startBaselineServer,
  statusMb,
  startService,
  type ServerHandle,
} from './harness.js';
import { firstDifference } from './hand-sql.js';
import { topFrames } from './cpu-profile.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGETS = { cached: 1.0, cold: 0.95, p99: 1.2, peakRssMb: 200 };

interface Round {
  rps: number;
  p99: number;
  /** CPU the server's process spent per request, in µs. */
  serverUs: number;
  /** CPU PostgreSQL's processes spent per request, in µs. */
  databaseUs: number;
}

/** utime, stime, cutime and cstime of a process, in clock ticks (/proc/<pid>/stat). */
const times = (pid: string) =>
  readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 15).map(Number);

/**
 * CPU of the benchmark database's processes, in ms: its postmaster (postmaster.pid's first line),
 * the backends it forked, and those that ended (an autovacuum worker's time moves to the
 * postmaster's children's time as it exits). Other PostgreSQL servers on the machine are not counted.
 */
function databaseCpuMs(postmaster: number | null) {
  if (postmaster === null) return 0;
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      const [user, system, children, childrenSystem] = times(pid);
      if (Number(pid) === postmaster) ticks += user! + system! + children! + childrenSystem!;
      else if (parent === postmaster) ticks += user! + system!;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks * 10;
}

let postmasterPid: number | null = null;

async function load(
  server: ServerHandle,
  path: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<Round> {
  const [server0, database0] = [cpuMs(server.pid), databaseCpuMs(postmasterPid)];
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = { url: server.baseUrl + path, connections: CONNECTIONS, duration: seconds, headers };
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    // Each answer's time as measured (fractional ms): autocannon's own percentiles are whole
    // milliseconds, which read a p99 of 2.4 against 2.6 ms as 2 against 3 (1.5×).
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status < 300) times.push(ms);
    });
  });
  if (result.non2xx + result.errors > 0) throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const perRequest = (ms: number) => Math.round((ms * 1000) / result.requests.total);
  return {
    rps: result.requests.total / result.duration,
    p99: percentile(times, 0.99),
    serverUs: perRequest(cpuMs(server.pid) - server0),
    databaseUs: perRequest(databaseCpuMs(postmasterPid) - database0),
  };
}

/** The value below which `share` of `values` lie (nearest rank). */
function percentile(values: number[], share: number) {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

const range = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

const casesOf = (reportId: string, projectId: string, today: string) =>
  [
    ['GET /clients', '/api/v1/clients'],
    ['GET /reports/{id}', `/api/v1/reports/${reportId}`],
    ['GET /reports/{id}/data', `/api/v1/reports/${reportId}/data`],
    [
      'metrics, 30 days',
      `/api/v1/ai-visibility/projects/${projectId}/metrics?dateFrom=${addDays(today, -29)}&dateTo=${today}&limit=1000`,
    ],
  ] as const;

async function setUp() {
  const embedded = await benchDatabase();
  const pidFile = path.join(root, '.data/bench-postgres/postmaster.pid');
  postmasterPid =
    process.env.BENCH_DATABASE_URL || !existsSync(pidFile)
      ? null
      : Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const database = connectDatabase(embedded.url, 2);
  const { report, project, key } = await benchApiFixtures(database);
  const env = {
    DATABASE_URL: embedded.url,
    RATE_LIMIT_SCALE: '100000000/100000000',
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
    DATABASE_STATEMENTS_PER_WORKSPACE: '9',
  };
  const today = new Date().toISOString().slice(0, 10);
  const tearDown = async () => {
    await database.close();
    await embedded.stop();
  };
  // BENCH_CASE: one case by its label.
  const only = process.env.BENCH_CASE;
  const cases = casesOf(report.id, project.id, today).filter(([label]) => !only || label === only);
  return { env, today, cases, headers: { authorization: `Bearer ${key.secret}` }, tearDown };
}

/**
 * BENCH_MODE=profile: each case loaded on a service started with `--cpu-prof` (cached, then cold),
 * for a warm-up and ROUNDS rounds' time, and its profile's top self-time frames printed.
 */
export async function profileAgainstLoad() {
  const { env, cases, headers, tearDown } = await setUp();
  for (const [label, path_] of cases) {
    for (const mode of ['cached', 'cold'] as const) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-profile-'));
      const server = await startService(mode === 'cold' ? { ...env, DATA_CACHE_MAX_BYTES: '0' } : env, [
        '--cpu-prof',
        `--cpu-prof-dir=${dir}`,
      ]);
      await load(server, path_, headers, ROUND_SECONDS);
      const measured = await load(server, path_, headers, ROUND_SECONDS * ROUNDS);
      await server.stop();
      const { functions, files } = topFrames(dir);
      console.log(
        `\n${label}, ${mode}: ${Math.round(measured.rps)} req/s, p99 ${measured.p99.toFixed(2)} ms; profile in ${dir}`,
      );
      console.table(functions);
      console.table(files);
    }
  }
  await tearDown();
}

export async function benchAgainstBare() {
  const { env, today, cases, headers, tearDown } = await setUp();
  const servers = {
    cached: await startService(env),
    cold: await startService({ ...env, DATA_CACHE_MAX_BYTES: '0' }),
    bare: await startBaselineServer({ ...env, BASELINE_POOL_SIZE: String(CONNECTIONS) }),
  };
  const idleMb = Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [name, statusMb(server.pid, 'VmRSS')]),
  );

  // The same work on both sides: the bodies agree before anything is timed.
  for (const [label, path] of cases) {
    const [ours, bare] = await Promise.all(
      [servers.cold, servers.bare].map(async (server) => (await fetch(server.baseUrl + path, { headers })).json()),
    );
    const difference = firstDifference(ours, bare);
    if (difference) console.warn(`${label}: the service and the bare server differ at ${difference}`);
  }

  const rows: Record<string, string | number>[] = [];
  const targets: { target: string; value: string; met: boolean }[] = [];
  for (const [label, path] of cases) {
    for (const mode of ['cached', 'cold'] as const) {
      const ours = servers[mode];
      await load(ours, path, headers, ROUND_SECONDS);
      await load(servers.bare, path, headers, ROUND_SECONDS);
      const throughput: number[] = [];
      const p99: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Alternated, and each round's order swapped, so a drift of the machine falls on both.
        const [a, b] = round % 2 === 0 ? [ours, servers.bare] : [servers.bare, ours];
        const first = await load(a, path, headers, ROUND_SECONDS);
        const second = await load(b, path, headers, ROUND_SECONDS);
        const [o, bare] = a === ours ? [first, second] : [second, first];
        throughput.push(o.rps / bare.rps);
        p99.push(o.p99 / bare.p99);
        rows.push({
          endpoint: label,
          mode,
          round,
          'ours req/s': Math.round(o.rps),
          'bare req/s': Math.round(bare.rps),
          'ours p99 ms': Number(o.p99.toFixed(2)),
          'bare p99 ms': Number(bare.p99.toFixed(2)),
          'ours µs/req (node, pg)': `${o.serverUs}, ${o.databaseUs}`,
          'bare µs/req (node, pg)': `${bare.serverUs}, ${bare.databaseUs}`,
          'peak MB (ours, bare)': `${statusMb(ours.pid, 'VmHWM')}, ${statusMb(servers.bare.pid, 'VmHWM')}`,
        });
      }
      const floor = TARGETS[mode];
      targets.push({
        target: `${label}, ${mode}: throughput ≥ ${floor}× bare (mean; rounds)`,
        value: `${mean(throughput).toFixed(2)} (${range(throughput)})`,
        met: mean(throughput) >= floor,
      });
      targets.push({
        target: `${label}, ${mode}: p99 ≤ ${TARGETS.p99}× bare (mean; rounds)`,
        value: `${mean(p99).toFixed(2)} (${range(p99)})`,
        met: mean(p99) <= TARGETS.p99,
      });
    }
  }
  console.log(
    `\nv1 against the tuned bare server: ${CONNECTIONS} connections, ` +
      `${ROUNDS} alternated rounds of ${ROUND_SECONDS} s (${today}, Node ${process.version})`,
  );
  console.table(rows);
  const memory = Object.entries(servers).map(([name, server]) => ({
    server: name,
    'at rest after start': idleMb[name]!,
    ...residentParts(server.pid),
  }));
  for (const mode of ['cached', 'cold'] as const) {
    const peak = memory.find((row) => row.server === mode)!['peak (VmHWM)'];
    targets.push({
      target: `${mode}: peak RSS ≤ ${TARGETS.peakRssMb} MB (VmHWM; issue 50's line is for a quiet instance)`,
      value: `${peak} MB`,
      met: peak <= TARGETS.peakRssMb,
    });
  }
  console.log('\nResident set by part (MB) at the end; peak = VmHWM, the most each process has held');
  console.table(memory);
  console.table(targets);
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  await tearDown();
}

// npm run bench:api — throughput of GET /api/v1/clients and GET /api/v1/reports/{id} at 50
// connections (autocannon), the service against a minimal node:http + pg baseline in the
// same run, alternated. Prints req/s, p50/p99, the ratios and the service's peak RSS.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { connectDatabase } from '../../src/db/client.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { benchApiWorkspace, benchDatabase, startProcess, runBench, type ServerHandle } from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 50;

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function load(server: ServerHandle, path: string, key: string) {
  const result = await autocannon({ url: `${server.baseUrl}${path}`, connections: CONNECTIONS, duration: SECONDS / 2, headers: { authorization: `Bearer ${key}` } });
  return { requests: result.requests.total, seconds: result.duration, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const workspace = await benchApiWorkspace(database);
  const report = await database.prisma.report.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  const key = await createApiKey(database.prisma, { workspaceId: workspace.id, name: `bench ${Date.now()}`, actor: { email: null } });
  const env = { DATABASE_URL: embedded.url, RATE_LIMIT_SCALE: '100000000/100000000' };
  const ours = await startProcess(['--import', 'tsx', 'src/server.ts'], env, 'node');
  const baseline = await startProcess(['--import', 'tsx', 'test/bench/baseline-server.ts'], env, 'node');

  const rows: Record<string, string | number>[] = [];
  for (const path of ['/api/v1/clients', `/api/v1/reports/${report.id}`]) {
    for (const server of [ours, baseline]) await load(server, path, key.secret); // warm-up round, discarded
    const measured = { ours: [] as Awaited<ReturnType<typeof load>>[], baseline: [] as Awaited<ReturnType<typeof load>>[] };
    for (let round = 0; round < 2; round++) {
      measured.ours.push(await load(ours, path, key.secret));
      measured.baseline.push(await load(baseline, path, key.secret));
    }
    const merge = (runs: Awaited<ReturnType<typeof load>>[]) => ({
      rps: runs.reduce((s, r) => s + r.requests, 0) / runs.reduce((s, r) => s + r.seconds, 0),
      p50: Math.max(...runs.map((r) => r.p50)),
      p99: Math.max(...runs.map((r) => r.p99)),
      non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    });
    const o = merge(measured.ours);
    const b = merge(measured.baseline);
    const label = path.startsWith('/api/v1/reports') ? 'GET /reports/{id}' : 'GET /clients';
    rows.push({ endpoint: label, server: 'ours', 'req/s': Math.round(o.rps), 'p50 ms': o.p50, 'p99 ms': o.p99, 'non-2xx': o.non2xx });
    rows.push({ endpoint: label, server: 'baseline', 'req/s': Math.round(b.rps), 'p50 ms': b.p50, 'p99 ms': b.p99, 'non-2xx': b.non2xx });
    rows.push({ endpoint: label, server: 'ratio ours/baseline', 'req/s': Number((o.rps / b.rps).toFixed(2)), 'p50 ms': Number((o.p50 / b.p50).toFixed(2)), 'p99 ms': Number((o.p99 / b.p99).toFixed(2)), 'non-2xx': '' });
  }
  console.log(`\nAPI throughput, ${CONNECTIONS} connections, ${SECONDS} s per endpoint and server (2 alternated rounds)  (${new Date().toISOString().slice(0, 10)})`);
  console.table(rows);
  const rss = peakRssMb(ours.pid);
  console.log(`Peak RSS of the service under load: ${rss.toFixed(0)} MB (target ≤ 300 MB); baseline: ${peakRssMb(baseline.pid).toFixed(0)} MB`);
  const ratios = rows.filter((row) => row.server === 'ratio ours/baseline');
  console.table(ratios.flatMap((row) => [
    { target: `${row.endpoint}: throughput ≥ 0.5× baseline`, value: row['req/s'], met: Number(row['req/s']) >= 0.5 },
    { target: `${row.endpoint}: p99 ≤ 3× baseline`, value: row['p99 ms'], met: Number(row['p99 ms']) <= 3 },
  ]).concat([{ target: 'peak RSS ≤ 300 MB', value: Math.round(rss), met: rss <= 300 }]));
  await ours.stop();
  await baseline.stop();
  await database.close();
  await embedded.stop();
}

runBench(main);

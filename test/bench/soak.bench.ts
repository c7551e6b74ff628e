// npm run bench:soak — SOAK_MINUTES (default 10) at 70 % of the measured capacity, mixed
// endpoints and keys. Prints per-minute throughput, p50/p99, 5xx and RSS, then checks: zero
// 5xx, last minute's p99 within 1.5× the first's, RSS not growing after the first minute.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { connectDatabase } from '../../src/db/client.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { benchApiWorkspace, benchDatabase, runBench, startService } from './harness.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const workspace = await benchApiWorkspace(database);
  const report = await database.prisma.report.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  const project = await database.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  const keys = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      createApiKey(database.prisma, {
        workspaceId: workspace.id,
        name: `soak ${i} ${Date.now()}`,
        actor: { email: null },
      }),
    ),
  );
  const server = await startService({
    DATABASE_URL: embedded.url,
    RATE_LIMIT_SCALE: '100000000/100000000',
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
  });
  const paths = [
    '/api/v1/clients',
    '/api/v1/reports',
    `/api/v1/reports/${report.id}`,
    `/api/v1/reports/${report.id}/data?datePreset=last_28_days`,
    '/api/v1/ai-visibility/projects',
    `/api/v1/ai-visibility/projects/${project.id}/metrics`,
  ];
  let next = 0;
  const options = {
    url: server.baseUrl,
    connections: 20,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => {
          const index = next++;
          return {
            ...request,
            path: paths[index % paths.length],
            headers: { authorization: `Bearer ${keys[index % keys.length]!.secret}` },
          };
        },
      },
    ] as unknown as autocannon.Request[],
  };

  const capacity = await autocannon({ ...options, duration: 15 });
  const rate = Math.floor(capacity.requests.average * 0.7);
  console.log(
    `capacity on the mix: ${Math.round(capacity.requests.average)} req/s; soaking at ${rate} req/s for ${MINUTES} min`,
  );
  const minutes: Record<string, number>[] = [];
  for (let minute = 1; minute <= MINUTES; minute++) {
    const result = await autocannon({ ...options, duration: 60, overallRate: rate });
    minutes.push({
      minute,
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      '5xx': result['5xx'],
      errors: result.errors + result.timeouts,
      'RSS MB': Math.round(rssMb(server.pid)),
    });
    console.log(JSON.stringify(minutes.at(-1)));
  }
  console.table(minutes);
  const first = minutes[0]!;
  const last = minutes.at(-1)!;
  const fivexx = minutes.reduce((sum, m) => sum + m['5xx']! + m.errors!, 0);
  console.table([
    { check: 'zero 5xx and socket errors', value: fivexx, met: fivexx === 0 },
    {
      check: 'p99 last minute ≤ 1.5× first',
      value: (last['p99 ms']! / first['p99 ms']!).toFixed(2),
      met: last['p99 ms']! <= 1.5 * first['p99 ms']!,
    },
    {
      check: 'RSS growth after minute 1 ≤ 10 %',
      value: `${first['RSS MB']} → ${last['RSS MB']} MB`,
      met: last['RSS MB']! <= first['RSS MB']! * 1.1,
    },
  ]);
  await server.stop();
  await database.close();
  await embedded.stop();
}

runBench(main);

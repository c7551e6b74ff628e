// npm run bench:memory — what the service's resident set is made of, case by case, under
// bench:api's four v1 cases in bench:api's order (50 connections, BENCH_SECONDS each), next to
// the bare node:http + pg server under the same load. Each part is read from /proc/<pid>/smaps:
// the Node binary's pages, V8's heap pages, glibc's main heap, the other anonymous mappings
// (malloc's per-thread arenas, V8's code range, stacks) and other files. For the peak RSS target
// (≤ 200 MB): it shows which load moves which part, in ~3 minutes instead of bench:api's 14.
// BENCH_MODE=quiet: the same parts through bench:abuse's quiet phase instead (memory-quiet.ts).
import { connectDatabase } from '../../src/db/client.js';
import {
  benchApiFixtures,
  benchDatabase,
  loadRun,
  residentParts,
  runBench,
  startBaselineServer,
  startOtlpReceiver,
  startService,
  v1BenchCases,
  type ServerHandle,
} from './harness.js';
import { quietMemory } from './memory-quiet.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const { report, key } = await benchApiFixtures(database);
  const auth = { authorization: `Bearer ${key.secret}` };
  // As bench:api runs it: metrics on, traces exported at the default sampling.
  const receiver = await startOtlpReceiver();
  const env = {
    DATABASE_URL: embedded.url,
    RATE_LIMIT_SCALE: '100000000/100000000',
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  };
  const servers: Record<string, ServerHandle> = {
    ours: await startService(env),
    baseline: await startBaselineServer(env),
  };

  const rows: Record<string, string | number>[] = [];
  const record = (after: string) => {
    for (const [server, handle] of Object.entries(servers)) rows.push({ after, server, ...residentParts(handle.pid) });
  };
  record('start (idle)');
  for (const [label, path] of v1BenchCases(report.id)) {
    // loadRun is one of two rounds: it runs for half the seconds it is given.
    for (const handle of Object.values(servers)) await loadRun(2 * SECONDS, handle, path, auth);
    record(label);
  }

  console.log(
    `\nResident set by part (MB), after each case at 50 connections, ${SECONDS} s per case and server ` +
      `(${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
  );
  console.table(rows);
  await Promise.all(Object.values(servers).map((handle) => handle.stop()));
  await receiver.close();
  await database.close();
  await embedded.stop();
}

runBench(process.env.BENCH_MODE === 'quiet' ? quietMemory : main);

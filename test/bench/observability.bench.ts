// npm run bench:observability — what the instrumentation costs: the same compiled service with
// metrics off (METRICS_PORT=0) and on, measured in alternated rounds at 50 connections on v1's
// two busiest reads; and one scrape under load, to show the series it serves. Target: ≤ 3 %.
import { connectDatabase } from '../../src/db/client.js';
import { freePort } from '../support/global-setup.js';
import { benchApiFixtures, benchDatabase, compareRuns, loadRun, runBench, startService } from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);

runBench(async () => {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const { report, key } = await benchApiFixtures(database);
  const auth = { authorization: `Bearer ${key.secret}` };
  const env = { DATABASE_URL: embedded.url, RATE_LIMIT_SCALE: '100000000/100000000' };
  const metricsPort = await freePort();
  const off = await startService({ ...env, METRICS_PORT: '0' });
  const on = await startService({ ...env, METRICS_PORT: String(metricsPort) });
  try {
    const rows: Record<string, string | number>[] = [];
    let worst = 0;
    for (const path of ['/api/v1/clients', `/api/v1/reports/${report.id}`]) {
      const { a: without, b: withMetrics } = await compareRuns(() => loadRun(SECONDS, off, path, auth), () => loadRun(SECONDS, on, path, auth));
      const cost = 1 - withMetrics.rps / without.rps;
      worst = Math.max(worst, cost);
      rows.push({ path, 'off req/s': Math.round(without.rps), 'on req/s': Math.round(withMetrics.rps), 'off p99': without.p99, 'on p99': withMetrics.p99, 'cost %': (cost * 100).toFixed(1) });
    }
    const scrape = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    console.log(`\nInstrumentation on vs off, 50 connections, ${SECONDS} s per case, alternated  (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`);
    console.table(rows);
    console.log(`worst throughput cost ${(worst * 100).toFixed(1)} % (target ≤ 3 %); the scrape served ${scrape.split('\n').filter((line) => line && !line.startsWith('#')).length} series`);
  } finally {
    await off.stop();
    await on.stop();
    await database.close();
    await embedded.stop();
  }
});

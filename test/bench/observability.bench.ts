// npm run bench:observability — what the instrumentation costs: the same compiled service with
// everything off (METRICS_PORT=0, no OTLP endpoint) and with all of it on (metrics, and traces
// exported to an OTLP receiver on loopback at the default sampling, OTEL_TRACES_SAMPLER unset),
// on v1's two busiest reads at 50 connections; then every request traced (always_on), as what an
// operator pays for that; and one scrape under load, to show the series it serves.
// The cost is read as the service's CPU per request at one fixed rate (from /proc), alternated:
// flat-out throughput on these shared two cores moved ±6 % between identical runs minutes apart,
// twice the 3 % being measured; a second uninstrumented service shows the run's own noise (A/A).
// Target: ≤ 3 % for all of it on by default.
import { connectDatabase } from '../../src/db/client.js';
import { freePort } from '../support/global-setup.js';
import { benchApiFixtures, benchDatabase, cpuMs, loadRun, runBench, startOtlpReceiver, startService, type ServerHandle } from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = 3;

/** Server CPU per request (µs) of each service at `rate` requests/s, in alternated rounds after a warm-up round. */
async function cpuPerRequest(services: ServerHandle[], path: string, headers: Record<string, string>, rate: number) {
  const spent = services.map(() => ({ cpu: 0, requests: 0 }));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [index, service] of services.entries()) {
      const before = cpuMs(service.pid);
      const run = await loadRun(SECONDS / ROUNDS, service, path, headers, 200, rate);
      if (round === 0) continue;
      spent[index]!.cpu += cpuMs(service.pid) - before;
      spent[index]!.requests += run.requests;
    }
  }
  return spent.map(({ cpu, requests }) => (cpu * 1000) / requests);
}

runBench(async () => {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const { report, key } = await benchApiFixtures(database);
  const auth = { authorization: `Bearer ${key.secret}` };
  const env = { DATABASE_URL: embedded.url, RATE_LIMIT_SCALE: '100000000/100000000' };
  const receiver = await startOtlpReceiver();
  const metricsPort = await freePort();
  const off = await startService({ ...env, METRICS_PORT: '0' });
  // A second identical service: the spread between the two is this run's noise.
  const offAgain = await startService({ ...env, METRICS_PORT: '0' });
  const on = await startService({ ...env, METRICS_PORT: String(metricsPort), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
  const everySpan = await startService({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'always_on' });
  try {
    const rows: Record<string, string | number>[] = [];
    let worst = 0;
    for (const path of ['/api/v1/clients', `/api/v1/reports/${report.id}`]) {
      // 60 % of what the uninstrumented service serves flat out: every service keeps up with it.
      const flatOut = await loadRun(SECONDS / ROUNDS, off, path, auth);
      const rate = Math.round((0.6 * flatOut.requests) / flatOut.seconds);
      const spansBefore = receiver.spans();
      const [cpuOff, cpuOffAgain, cpuOn, cpuEverySpan] = await cpuPerRequest([off, offAgain, on, everySpan], path, auth, rate);
      const cost = cpuOn! / cpuOff! - 1;
      worst = Math.max(worst, cost);
      rows.push({
        path,
        'req/s (fixed)': rate,
        'CPU µs/request, off': Math.round(cpuOff!),
        'off again (A/A)': Math.round(cpuOffAgain!),
        'metrics + traces (default)': Math.round(cpuOn!),
        'cost %': (cost * 100).toFixed(1),
        'traces always_on': Math.round(cpuEverySpan!),
        'always_on cost %': ((cpuEverySpan! / cpuOff! - 1) * 100).toFixed(1),
        'spans exported': receiver.spans() - spansBefore,
      });
    }
    const scrape = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    console.log(`\nInstrumentation: the service's CPU per request, ${SECONDS} s per service and path in ${ROUNDS} alternated rounds after a warm-up  (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`);
    console.table(rows);
    console.log(`the scrape served ${scrape.split('\n').filter((line) => line && !line.startsWith('#')).length} series`);
    console.table([{ target: 'metrics + traces at the default sampling: CPU per request ≤ 3 % above off', value: `${(worst * 100).toFixed(1)} %`, met: worst <= 0.03 }]);
  } finally {
    await Promise.all([off.stop(), offAgain.stop(), on.stop(), everySpan.stop()]);
    await receiver.close();
    await database.close();
    await embedded.stop();
  }
});

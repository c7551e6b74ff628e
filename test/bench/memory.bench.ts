// npm run bench:memory — what the service's resident set is made of, case by case, under
// bench:api's four v1 cases in bench:api's order (50 connections, BENCH_SECONDS each), next to
// the bare node:http + pg server under the same load. Each part is read from /proc/<pid>/smaps:
// the Node binary's pages, V8's heap pages, glibc's main heap, the other anonymous mappings
// (malloc's per-thread arenas, V8's code range, stacks) and other files. For the peak RSS target
// (≤ 200 MB): it shows which load moves which part, in ~3 minutes instead of bench:api's 14.
import { readFileSync, realpathSync } from 'node:fs';
import { connectDatabase } from '../../src/db/client.js';
import { benchApiFixtures, benchDatabase, loadRun, runBench, startBaselineServer, startOtlpReceiver, startService, v1BenchCases, type ServerHandle } from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/**
 * V8 maps each page of its heap on its own, at this size (Node is built without pointer
 * compression, so there is no reserved cage around them); malloc's arenas and V8's code range
 * are larger mappings. Two pages the kernel merged would count as "other anonymous".
 */
const V8_PAGE_BYTES = 256 * 1024;
/** Both servers run the Node that runs this script (startProcess). */
const NODE_BINARY = realpathSync(process.execPath);

const mb = (kb: number) => Math.round(kb / 1024);

/** The resident set by part, in MB, with the high-water mark the kernel keeps (VmHWM). */
function residentParts(pid: number) {
  const parts = { 'node binary': 0, 'V8 heap pages': 0, 'malloc main heap': 0, 'other anonymous': 0, files: 0 };
  let part: keyof typeof parts = 'files';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const [, start, end, name] = mapping as unknown as [string, string, string, string];
      const bytes = parseInt(end, 16) - parseInt(start, 16);
      part = name === '' ? (bytes === V8_PAGE_BYTES ? 'V8 heap pages' : 'other anonymous') : name === '[heap]' ? 'malloc main heap' : name === NODE_BINARY ? 'node binary' : name.startsWith('[') ? 'other anonymous' : 'files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) parts[part] += Number(rss[1]);
  }
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]);
  return { 'peak (VmHWM)': mb(field('VmHWM')), RSS: mb(field('VmRSS')), ...Object.fromEntries(Object.entries(parts).map(([name, kb]) => [name, mb(kb)])) };
}

async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const { report, key } = await benchApiFixtures(database);
  const auth = { authorization: `Bearer ${key.secret}` };
  // As bench:api runs it: metrics on, traces exported at the default sampling.
  const receiver = await startOtlpReceiver();
  const env = { DATABASE_URL: embedded.url, RATE_LIMIT_SCALE: '100000000/100000000', WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
  const servers: Record<string, ServerHandle> = { ours: await startService(env), baseline: await startBaselineServer(env) };

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

  console.log(`\nResident set by part (MB), after each case at 50 connections, ${SECONDS} s per case and server (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`);
  console.table(rows);
  await Promise.all(Object.values(servers).map((handle) => handle.stop()));
  await receiver.close();
  await database.close();
  await embedded.stop();
}

runBench(main);

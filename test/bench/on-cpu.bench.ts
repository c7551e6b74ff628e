// npm run bench:on-cpu — where each server's CPU goes per request, kernel included: `perf record`
// (cpu-clock, on-CPU samples only) attached to the service (metrics on, tracing configured at the
// default sampling, as in bench:api) and to the bare server while both are loaded in alternated
// rounds after a long warm-up, then each sample put in a category by its symbol: JavaScript by the
// tier that compiled it (`--perf-basic-prof` names JIT code), V8's builtins, GC, V8's compilers,
// JSON, hashing, the kernel (socket writes and reads), the rest of the native code. Leaf samples
// only: stack walks through JIT frames were not reliable enough to attribute inclusive time. Read
// the two JavaScript tiers together: where V8 reused the address of collected code, the perf map
// names the older function (graphql's parser showed up under `_send`), so a tier may be misnamed.
// Where the CPU profile (`--cpu-prof`) samples wall time on the JS thread — a `writev` that waits
// for the scheduler looks like work there — this counts what each process ran, on every thread.
// Needs perf (`apt-get install linux-perf`) and permission to attach to the two processes.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase } from '../../src/db/client.js';
import { imageNodeOptions } from '../support/docker-image.js';
import {
  benchApiFixtures,
  benchDatabase,
  loadRun,
  runBench,
  startBaselineServer,
  startOtlpReceiver,
  startService,
  warmUp,
  WARMUP_SECONDS,
  type ServerHandle,
} from './harness.js';

const ROUNDS = 4;
const ROUND_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SAMPLES_PER_SECOND = 999;

const CATEGORIES: [string, RegExp][] = [
  ['kernel', /^\[kernel/],
  ['JavaScript, TurboFan', /\|\[\.\] JS:\*/],
  ['JavaScript, Maglev', /\|\[\.\] JS:\+/],
  ['JavaScript, Sparkplug or interpreted', /\|\[\.\] (JS:[\^~]|Builtins_Interpreter)/],
  ['GC', /Heap|Scaveng|Mark(ing|Compact)|Sweep|Evacuat|RecordWrite|Remembered|cppgc/],
  [
    'V8 compilers',
    /v8::internal::(compiler::|maglev::|turboshaft::|interpreter::|Parser|Scanner|BytecodeGenerator|Compiler::)/,
  ],
  ['JSON', /Json/],
  ['UTF-8 and strings', /Utf8|unibrow|String(::|Table|Builder)/],
  ['hashing (OpenSSL)', /sha\d*_|SHA|EVP_|ossl_/],
  ['V8 builtins (ICs, promises, calls)', /\|\[\.\] Builtins_/],
  ['libc (malloc, memcpy)', /^libc/],
];

/** Samples of a perf recording, per category and thread kind (the JS thread or V8's workers). */
function categorised(recording: string): Map<string, number> {
  const report = execFileSync(
    'perf',
    [
      'report',
      '-i',
      recording,
      '--stdio',
      '--no-children',
      '--sort',
      'comm,dso,sym',
      '-F',
      'sample,comm,dso,sym',
      '-t',
      '|',
      '-g',
      'none',
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const samples = new Map<string, number>();
  for (const line of report.split('\n')) {
    const [count, thread, dso, symbol] = line.split('|').map((field) => field.trim());
    if (!count || !/^\d+$/.test(count) || symbol === undefined) continue;
    const key = `${dso}|${symbol}`;
    const category = CATEGORIES.find(([, pattern]) => pattern.test(key))?.[0] ?? 'other native';
    const name = `${thread === 'V8Worker' ? 'V8 worker threads: ' : ''}${category}`;
    samples.set(name, (samples.get(name) ?? 0) + Number(count));
  }
  return samples;
}

function record(server: ServerHandle, file: string): ChildProcess {
  return spawn(
    'perf',
    ['record', '-q', '-F', String(SAMPLES_PER_SECOND), '-e', 'cpu-clock', '-p', String(server.pid), '-o', file],
    { stdio: 'ignore' },
  );
}

const stopped = (perf: ChildProcess) =>
  new Promise<void>((resolve) => {
    perf.once('exit', () => resolve());
    perf.kill('SIGINT');
  });

async function profile(
  servers: Record<'ours' | 'bare', ServerHandle>,
  requestPath: string,
  headers: Record<string, string>,
  directory: string,
) {
  const names = ['ours', 'bare'] as const;
  // loadRun loads for half the seconds it is given.
  for (const name of names) await warmUp(servers[name], requestPath, headers);
  const files = { ours: path.join(directory, 'ours.data'), bare: path.join(directory, 'bare.data') };
  const recordings = names.map((name) => record(servers[name], files[name]));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const requests = { ours: 0, bare: 0 };
  const seconds = { ours: 0, bare: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      const run = await loadRun(2 * ROUND_SECONDS, servers[name], requestPath, headers);
      if (run.non2xx) throw new Error(`${requestPath}: ${run.non2xx} answers were not 200`);
      requests[name] += run.requests;
      seconds[name] += run.seconds;
    }
  }
  await Promise.all(recordings.map(stopped));
  const perRequest = (name: 'ours' | 'bare') => {
    const microseconds = new Map<string, number>();
    for (const [category, count] of categorised(files[name]))
      microseconds.set(category, (count * 1e6) / SAMPLES_PER_SECOND / requests[name]);
    return microseconds;
  };
  return {
    ours: perRequest('ours'),
    bare: perRequest('bare'),
    rps: { ours: requests.ours / seconds.ours, bare: requests.bare / seconds.bare },
  };
}

runBench(async () => {
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('bench:on-cpu needs perf (apt-get install linux-perf)');
  }
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 2);
  const { report, key } = await benchApiFixtures(database);
  const headers = { authorization: `Bearer ${key.secret}` };
  const receiver = await startOtlpReceiver();
  const env = {
    DATABASE_URL: embedded.url,
    RATE_LIMIT_SCALE: '100000000/100000000',
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    NODE_OPTIONS: `${imageNodeOptions()} --perf-basic-prof`,
  };
  const servers = { ours: await startService(env), bare: await startBaselineServer(env) };
  const directory = mkdtempSync(path.join(os.tmpdir(), 'bench-on-cpu-'));
  try {
    for (const requestPath of [`/api/v1/reports/${report.id}`, '/api/v1/clients']) {
      const { ours, bare, rps } = await profile(servers, requestPath, headers, directory);
      const rows = [...new Set([...ours.keys(), ...bare.keys()])]
        .map((category) => ({
          category,
          'ours µs/request': ours.get(category) ?? 0,
          'bare µs/request': bare.get(category) ?? 0,
        }))
        .sort((a, b) => b['ours µs/request'] - b['bare µs/request'] - (a['ours µs/request'] - a['bare µs/request']));
      const total = (values: Map<string, number>) => [...values.values()].reduce((sum, value) => sum + value, 0);
      rows.push({ category: 'total', 'ours µs/request': total(ours), 'bare µs/request': total(bare) });
      const template = requestPath.replace(report.id, '{id}');
      console.log(
        `\nGET ${template}: CPU per request by category (perf, ${SAMPLES_PER_SECOND} Hz, leaf samples), ` +
          `${ROUNDS} alternated rounds of ${ROUND_SECONDS} s after ${WARMUP_SECONDS} s of warm-up each; ` +
          `ours ${Math.round(rps.ours)} req/s, bare ${Math.round(rps.bare)} req/s ` +
          `(${(rps.ours / rps.bare).toFixed(2)}×; perf slows both)  ` +
          `(${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
      );
      console.table(
        rows.map((row) => ({
          category: row.category,
          'ours µs/request': row['ours µs/request'].toFixed(1),
          'bare µs/request': row['bare µs/request'].toFixed(1),
          difference: (row['ours µs/request'] - row['bare µs/request']).toFixed(1),
        })),
      );
    }
  } finally {
    await servers.ours.stop();
    await servers.bare.stop();
    await receiver.close();
    await database.close();
    await embedded.stop();
  }
});

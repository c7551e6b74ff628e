// npm run bench:instructions — instructions per request of the service and of the bare server
// (baseline-server.ts), counted by callgrind in the server process: a measure that holds still
// on a noisy shared machine, where throughput and CPU time of identical runs differ by 10–30 %.
// Each server runs under valgrind with counting off; after BENCH_WARM requests (so that V8 has
// compiled the hot code) counting is switched on for BENCH_COUNTED requests and dumped. Kernel
// time is not counted (both servers make the same system calls per request: 2 reads, 2 writevs);
// everything in user space is — our JavaScript, V8's compilers and GC, OpenSSL, llhttp.
// Instructions do not follow CPU time across programs (a cached /reports/{id} runs 0.6× the bare
// server's instructions in about its CPU time): compare builds of one program with it.
// Needs valgrind (`apt-get install valgrind`). Slow: ~1 min per server and path.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase } from '../../src/db/client.js';
import { build, buildIsStale } from '../../scripts/start.mjs';
import { benchApiFixtures, benchDatabase, fetchCase, runBench, startProcess, type ServerHandle } from './harness.js';

// After 4 000 warm requests TurboFan was still compiling: 29 % of the counted instructions, varying
// from build to build more than the changes measured. After 20 000 it is 6–9 %, and it is shown apart.
const WARM = Number(process.env.BENCH_WARM ?? 20_000);
const COUNTED = Number(process.env.BENCH_COUNTED ?? 4_000);
const IN_FLIGHT = 4;

/** GETs `path` `count` times, IN_FLIGHT at a time; every answer must be 200. */
async function load(server: ServerHandle, path: string, headers: Record<string, string>, count: number) {
  const get = fetchCase(`${server.baseUrl}${path}`, headers);
  let started = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (started++ < count) if (!(await get())) throw new Error(`${path}: not 200`);
    }),
  );
}

/**
 * The Ir total of the callgrind dump in `directory` (one dump: `callgrind_control -d`), and the part
 * of it in V8's optimizing compiler (functions in `v8::internal::compiler::`, its background threads included).
 */
function dumpedInstructions(directory: string): { total: number; compiler: number } {
  const dump = readdirSync(directory).find((file) => /\.\d+$/.test(file));
  if (!dump) throw new Error(`no callgrind dump in ${directory}`);
  const file = path.join(directory, dump);
  const total = Number(/^summary: (\d+)/m.exec(readFileSync(file, 'utf8'))![1]);
  const annotated = execFileSync('callgrind_annotate', ['--threshold=100', file], { maxBuffer: 1 << 28 }).toString();
  let compiler = 0;
  for (const line of annotated.split('\n'))
    if (line.includes('compiler::')) compiler += Number(line.trim().split(/\s+/)[0]!.replace(/,/g, ''));
  return { total, compiler };
}

async function instructionsPerRequest(
  args: string[],
  env: Record<string, string>,
  requestPath: string,
  headers: Record<string, string>,
): Promise<{ total: number; compiler: number }> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'bench-callgrind-'));
  const server = await startProcess(args, env, 'node', [
    'valgrind',
    '-q',
    '--tool=callgrind',
    '--instr-atstart=no',
    `--callgrind-out-file=${directory}/callgrind.out`,
  ]);
  try {
    await load(server, requestPath, headers, WARM);
    // callgrind_control finds the process by a file named after $HOST, which the server's env sets.
    const control = (...options: string[]) =>
      execFileSync('callgrind_control', [...options, String(server.pid)], {
        env: { ...process.env, HOST: '127.0.0.1' },
        stdio: 'ignore',
      });
    control('-i', 'on');
    await load(server, requestPath, headers, COUNTED);
    control('-d');
    const { total, compiler } = dumpedInstructions(directory);
    return { total: total / COUNTED, compiler: compiler / COUNTED };
  } finally {
    await server.stop();
  }
}

async function main() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('bench:instructions needs valgrind (apt-get install valgrind)');
  }
  if (buildIsStale()) build();
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 2);
  const { report, key } = await benchApiFixtures(database);
  // identity: fetch asks for gzip, deflate and br by default, and the service then compresses a
  // 1.9 KB report per request (1.9 M instructions instead of 0.84 M) where the bare server never does.
  const headers = { authorization: `Bearer ${key.secret}`, 'accept-encoding': 'identity' };
  // The webhook worker's polling would be counted too; v1 is what is measured.
  const env = {
    DATABASE_URL: embedded.url,
    RATE_LIMIT_SCALE: '100000000/100000000',
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
    WEBHOOK_WORKER: 'false',
  };
  const rows: Record<string, string | number>[] = [];
  for (const requestPath of [`/api/v1/reports/${report.id}`, '/api/v1/clients']) {
    const bare = await instructionsPerRequest(
      ['--import', 'tsx', 'test/bench/baseline-server.ts'],
      env,
      requestPath,
      headers,
    );
    const ours = await instructionsPerRequest(['dist/server.js'], env, requestPath, headers);
    const template = requestPath.replace(report.id, '{id}');
    const row = (server: string, counted: { total: number; compiler: number }) => ({
      path: template,
      server,
      'instructions/request': Math.round(counted.total),
      "without TurboFan's": Math.round(counted.total - counted.compiler),
    });
    rows.push(row('ours (metrics on, no tracing)', ours), row('bare', bare));
    rows.push({
      path: template,
      server: 'ratio ours/bare',
      'instructions/request': Number((ours.total / bare.total).toFixed(2)),
      "without TurboFan's": Number(((ours.total - ours.compiler) / (bare.total - bare.compiler)).toFixed(2)),
    });
  }
  console.log(
    `\nInstructions per request in the server process (callgrind), ${WARM} warm then ${COUNTED} counted, ` +
      `${IN_FLIGHT} in flight  (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
  );
  console.table(rows);
  await database.close();
  await embedded.stop();
}

runBench(main);

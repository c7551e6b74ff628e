// npm run bench:ingest-abuse — issue 48's ingest bodies against the built service: bodies of `{}`
// lines and lines whose arrays hold numbers where objects belong, up to the 64 MiB limit, each
// timed (wall and the server's CPU: on a loaded machine the CPU is what the body costs) with the
// server's resident set sampled throughout, the size of its answer, and the worst
// wait of a /healthz probe sent every 50 ms meanwhile (the event loop's responsiveness); then the
// good path, 40 scans × 230 runs over HTTP (bench:answers' ingest body) into an empty project.
// BENCH_INGEST_MB, BENCH_NUMBERS_MB: the body sizes in MB (default 3,18,36,63 and 0.81,6.5,63).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { connectDatabase } from '../../src/db/client.js';
import { createWorkspace } from '../../src/workspaces/index.js';
import { benchDatabase, cpuMs, runBench, startService } from './harness.js';
import { quietRun } from '../support/scan-lines.js';
import { createProject } from '../support/projects.js';

const TOKEN = 'i'.repeat(40);
const sizes = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map(Number);
/** POST over node:http: fetch gives up waiting for an answer's headers after 300 s. */
const postBody = (url: string, body: Uint8Array) =>
  new Promise<{ status: number; answer: Buffer }>((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-length': body.byteLength } },
      (response) => {
        const chunks: Buffer[] = [];
        response
          .on('data', (chunk: Buffer) => chunks.push(chunk))
          .on('end', () => resolve({ status: response.statusCode!, answer: Buffer.concat(chunks) }))
          .on('error', reject);
      },
    );
    request.on('error', reject).end(body);
  });
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

runBench(async () => {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const server = await startService({ DATABASE_URL: embedded.url, INGEST_TOKEN: TOKEN, DATA_CACHE_MAX_BYTES: '0' });
  const workspace = await createWorkspace(database.prisma, { slug: `ingest-abuse-${Date.now()}`, plan: 'scale' });
  const project = await createProject(database, workspace.id, {
    name: 'Abuse',
    competitors: ['Globex'],
    models: ['chatgpt'],
    locales: ['en-US'],
  });
  const rows: Record<string, string | number>[] = [];

  const post = async (label: string, body: Uint8Array<ArrayBuffer>) => {
    const before = rssMb(server.pid);
    let peak = before;
    let worstProbeMs = 0;
    let probing = true;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 100);
    const probe = (async () => {
      while (probing) {
        const sent = performance.now();
        await (await fetch(`${server.baseUrl}/healthz`)).arrayBuffer();
        worstProbeMs = Math.max(worstProbeMs, performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = performance.now();
    const cpuBefore = cpuMs(server.pid);
    const { status, answer } = await postBody(`${server.baseUrl}/internal/ingest/scans`, body);
    const seconds = (performance.now() - started) / 1000;
    probing = false;
    await probe;
    clearInterval(sampler);
    rows.push({
      body: label,
      MB: (body.length / 1e6).toFixed(2),
      status,
      'answer KB': (answer.byteLength / 1024).toFixed(1),
      s: seconds.toFixed(1),
      'server CPU s': ((cpuMs(server.pid) - cpuBefore) / 1000).toFixed(1),
      'RSS before': before.toFixed(0),
      'RSS peak': peak.toFixed(0),
      'worst /healthz ms': worstProbeMs.toFixed(0),
    });
    console.log(rows.at(-1));
  };

  for (const mb of sizes('BENCH_INGEST_MB', '3,18,36,63'))
    await post('`{}` lines', new TextEncoder().encode('{}\n'.repeat(Math.floor((mb * 1e6) / 3))));
  const numbers = JSON.stringify({
    project: project.id,
    date: '2026-10-01',
    model: 'chatgpt',
    locale: 'en-US',
    runs: Array(1000).fill(7),
    competitors: Array(50).fill(7),
  });
  for (const mb of sizes('BENCH_NUMBERS_MB', '0.81,6.5,63'))
    await post(
      'numbers where objects belong',
      new TextEncoder().encode(
        Array(Math.floor((mb * 1e6) / numbers.length))
          .fill(numbers)
          .join('\n'),
      ),
    );
  const oneLine = JSON.stringify({
    project: project.id,
    date: '2026-10-01',
    model: 'chatgpt',
    locale: 'en-US',
    runs: Array(1000).fill(quietRun({ citations: Array(100).fill(7) })),
  });
  await post('one line, 1 000 runs × 100 numbers as citations', new TextEncoder().encode(oneLine));

  // The good path: bench:answers' ingest body (40 scans × 230 runs, 4 searches and 6 pages read each), three rounds.
  const domains = ['example.com', 'acme.com', 'globex.com', 'initech.com', 'umbrella.com', 'hooli.com'];
  const runsOf = (seed: number) =>
    Array.from({ length: 230 }, (_, index) => ({
      prompt: `Which CRM is best for use case ${index}?`,
      answer:
        `For most teams, Acme and Globex are the usual choices (${seed}/${index}). ` +
        'They differ in price, support, integrations and reporting; '.repeat(4),
      brandMentions: index % 2,
      totalMentions: 2,
      position: index % 2 ? 1 : null,
      sentiment: index % 2 ? 'positive' : null,
      competitors: [{ name: 'Globex', mentions: 1, position: 2 }],
      citations: Array.from({ length: index % 6 }, (_, k) => ({
        url: `https://www.${domains[(index + k) % domains.length]}/page/${k}`,
        title: 'A page',
      })),
      searchQueries: Array.from(
        { length: 4 },
        (_, k) =>
          `best crm for use case ${(index + k * 57) % 460}${(seed * 7 + index * 3 + k) % 10 < 3 ? ' 2026' : ''}`,
      ),
      retrieved: Array.from({ length: 6 }, (_, k) => ({
        url: `https://www.${domains[(index + k) % domains.length]}/page/${k}`,
        title: 'A page',
      })),
    }));
  const rates: number[] = [];
  const cpuSeconds: number[] = [];
  for (let round = 0; round < 3; round++) {
    const scratch = await createProject(database, workspace.id, {
      name: `Good ${round}`,
      competitors: ['Globex'],
      models: ['chatgpt'],
      locales: ['en-US'],
    });
    const body = Array.from({ length: 40 }, (_, index) =>
      JSON.stringify({
        project: scratch.id,
        date: new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10),
        model: 'chatgpt',
        locale: 'en-US',
        runs: runsOf(index + round * 40),
      }),
    ).join('\n');
    const started = performance.now();
    const cpuBefore = cpuMs(server.pid);
    const response = await fetch(`${server.baseUrl}/internal/ingest/scans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body,
    });
    if (response.status !== 200) throw new Error(`good ingest failed: ${await response.text()}`);
    rates.push((40 * 230) / ((performance.now() - started) / 1000));
    cpuSeconds.push((cpuMs(server.pid) - cpuBefore) / 1000);
  }
  console.table(rows);
  console.log(
    `Good path, 9 200 runs over HTTP into an empty project: ${rates.map(Math.round).join(', ')} runs/s ` +
      `(median ${Math.round(rates.sort((a, b) => a - b)[1]!)}); ` +
      `server CPU ${cpuSeconds.map((cpu) => cpu.toFixed(2)).join(', ')} s`,
  );
  await server.stop();
  await database.close();
  await embedded.stop();
});

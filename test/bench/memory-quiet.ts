// BENCH_MODE=quiet npm run bench:memory — issue 50's "peak RSS ≤ 200 MB quiet", step by step, in about a
// minute: one service as bench:abuse starts it, two MCP connections through the whole OAuth flow (a
// sign-in each), the first request of each of bench:abuse's doors for workspace B, then its quiet trickle
// (2 requests a second per door) for BENCH_SECONDS (40). The resident set is sampled every 100 ms: each
// step's highest sample, and its parts from /proc/<pid>/smaps as the step ends; V8's heap spaces at the end.
import { readFileSync } from 'node:fs';
import { connectDatabase } from '../../src/db/client.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { addDays } from '../../src/dates/civil-date.js';
import {
  benchApiFixtures,
  benchDatabase,
  mcpAccessToken,
  residentParts,
  socketClient,
  startService,
  statusMb,
} from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 40);
const TARGET_MB = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** V8's heap spaces (MB committed, used) from the service's /metrics, the port the harness gave it. */
async function heapSpaces(pid: number) {
  const port = /(?:^|\0)METRICS_PORT=(\d+)/.exec(readFileSync(`/proc/${pid}/environ`, 'latin1'))![1];
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const spaces: Record<string, Record<string, number>> = {};
  for (const [, kind, space, bytes] of text.matchAll(
    /^signalboard_nodejs_heap_space_size_(total|used)_bytes\{space="(\w+)"\} (\S+)/gm,
  ))
    if (Number(bytes) > 0) (spaces[space!] ??= {})[kind!] = Math.round(Number(bytes) / 2 ** 20);
  return spaces;
}

export async function quietMemory() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const b = await benchApiFixtures(database);
  const key = (name: string) =>
    createApiKey(database.prisma, {
      workspaceId: b.workspace.id,
      name: `${name} ${Date.now()}`,
      actor: { email: null },
    });
  const [graphqlKey, exportKey] = [await key('quiet graphql'), await key('quiet export')];
  const service = await startService({ DATABASE_URL: embedded.url, WEBHOOK_WORKER: 'false' });
  let highest = 0;
  const sampler = setInterval(() => (highest = Math.max(highest, statusMb(service.pid, 'VmRSS'))), 100);
  const rows: Record<string, string | number>[] = [];
  const step = (name: string) => {
    rows.push({ step: name, 'highest RSS in step': highest, ...residentParts(service.pid) });
    highest = 0;
  };
  await sleep(1000);
  step('start (idle)');
  // bench:abuse connects workspace A and workspace B: two sign-ins, two consents.
  const token = await mcpAccessToken(database, service.baseUrl, b.workspace.id, '/mcp/x/all');
  await mcpAccessToken(database, service.baseUrl, b.workspace.id, '/mcp/x/all');
  step('two MCP connections (OAuth)');

  const client = socketClient(service.baseUrl);
  const today = new Date().toISOString().slice(0, 10);
  const send = (request: Buffer) => async () => (await client.send(request)).status;
  const json = { 'content-type': 'application/json' };
  const doors: Record<string, () => Promise<number>> = {
    'v1 GET /clients': send(client.prepare('GET', '/api/v1/clients', { authorization: `Bearer ${b.key.secret}` })),
    'GraphQL query': send(
      client.prepare(
        'POST',
        '/graphql',
        { authorization: `Bearer ${graphqlKey.secret}`, ...json },
        JSON.stringify({ query: `{ node(id: "${b.report.id}") { id } }` }),
      ),
    ),
    'MCP tools/call': send(
      client.prepare(
        'POST',
        '/mcp/x/all',
        {
          authorization: `Bearer ${token}`,
          ...json,
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_clients', arguments: {} },
        }),
      ),
    ),
    'CSV export': async () => {
      const query = `dateFrom=${addDays(today, -6)}&dateTo=${today}`;
      const response = await fetch(
        `${service.baseUrl}/api/v1/ai-visibility/projects/${b.project.id}/answers?${query}`,
        {
          headers: { authorization: `Bearer ${exportKey.secret}`, accept: 'text/csv' },
        },
      );
      await response.arrayBuffer();
      return response.status;
    },
  };
  for (const [door, call] of Object.entries(doors)) {
    const status = await call();
    if (status !== 200) throw new Error(`${door}: ${status}`);
    await sleep(1000);
    step(`first ${door}`);
  }
  const end = Date.now() + SECONDS * 1000;
  const pending: Promise<number>[] = [];
  while (Date.now() < end) {
    for (const call of Object.values(doors)) pending.push(call());
    await sleep(500);
  }
  await Promise.all(pending);
  step(`quiet trickle, ${SECONDS} s`);
  clearInterval(sampler);
  const spaces = await heapSpaces(service.pid);
  client.close();
  const peak = statusMb(service.pid, 'VmHWM');
  await service.stop();
  await database.close();
  await embedded.stop();

  console.log(`\nQuiet memory by step (MB; ${new Date().toISOString().slice(0, 10)}, Node ${process.version})`);
  console.table(rows);
  console.log("V8's heap spaces at the end (MB)");
  console.table(spaces);
  console.table([{ target: `peak RSS while quiet ≤ ${TARGET_MB} MB (VmHWM)`, value: peak, met: peak <= TARGET_MB }]);
}

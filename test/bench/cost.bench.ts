// The per-request price of the GraphQL cost check and of the response byte cap, on the web app's
// ProjectAnswers (its trusted operation) and on a page of answers: `npm run bench:cost`.
// Compared: @pothos/plugin-complexity (chosen: it reads the cost each field declares in the
// schema, with the coerced variables) and graphql-query-complexity's getComplexity.
// Then issue 50's fair-share steps, each on its own (`BENCH_COST=steps` measures only those).
import { parse } from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { schema } from '../../src/graphql/schema.js';
import { operationCost } from '../../src/graphql/cost.js';
import { loadTrustedOperations } from '../../src/graphql/trusted-operations.js';
import { parseConfig } from '../../src/config/index.js';
import { pathOverSize } from '../../src/http/response-size.js';
import { EventEmitter } from 'node:events';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { build, buildIsStale } from '../../scripts/start.mjs';
import { generateApiKey } from '../../src/auth/api-key-format.js';
import type * as ApiKeys from '../../src/auth/api-keys.js';
import type * as Admission from '../../src/auth/admission.js';
import type * as RateLimitStore from '../../src/auth/rate-limit-store.js';
import type * as WorkspaceConcurrency from '../../src/auth/workspace-concurrency.js';
import type * as StatementShares from '../../src/db/statement-shares.js';
import type * as StallWatch from '../../src/http/stall-watch.js';
import type * as RefusalPause from '../../src/http/refusal-pause.js';
import type * as ResponseSize from '../../src/http/response-size.js';

const context = { config: parseConfig({}) } as never;
const text = [...loadTrustedOperations().values()].find((candidate) => candidate.includes('query ProjectAnswers'))!;
const document = parse(text);
const variables = { id: 'prj_0123456789abcdef', answersPerPrompt: 3 };

function time(label: string, run: () => unknown, rounds = 20_000): void {
  if (process.env.BENCH_COST === 'steps') return;
  for (let i = 0; i < 2_000; i++) run();
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) run();
  const micros = Number(process.hrtime.bigint() - started) / 1000 / rounds;
  console.log(`${label.padEnd(58)} ${micros.toFixed(2).padStart(8)} µs`);
}

console.log(`ProjectAnswers cost (pothos): ${operationCost(schema, document, 'ProjectAnswers', variables, context)}`);
time('ProjectAnswers, @pothos/plugin-complexity', () =>
  operationCost(schema, document, 'ProjectAnswers', variables, context),
);
// The same declarations read by graphql-query-complexity (its own estimator signature differs).
type Declared =
  | number
  | { field?: number; multiplier?: number }
  | ((args: unknown, ctx: unknown, field: unknown) => number | { field?: number; multiplier?: number });
const declared: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const option = field.extensions?.complexity as Declared | undefined;
  const value = typeof option === 'function' ? option(args, context, field) : option;
  if (typeof value === 'number') return value + childComplexity;
  return (value?.field ?? 1) + (value?.multiplier ?? 1) * childComplexity;
};
const projectAnswers = { schema, query: document, variables, operationName: 'ProjectAnswers', estimators: [declared] };
console.log(`ProjectAnswers cost (graphql-query-complexity): ${getComplexity(projectAnswers)}`);
time('ProjectAnswers, graphql-query-complexity', () => getComplexity(projectAnswers));

// A v1-sized answer: a page of 100 answers of ~2 KB text with their citations.
const answer = (i: number) => ({
  id: `ans_${i}`,
  promptId: 'pmt_1',
  prompt: 'Which CRM is best for a small agency?',
  date: '2026-11-01',
  model: 'chatgpt',
  locale: 'en-US',
  text: 'x'.repeat(2000),
  brandMentions: 2,
  totalMentions: 5,
  position: 1,
  sentiment: 'positive',
  competitors: [{ name: 'Acme', mentions: 1, position: 2 }],
  citations: Array.from({ length: 5 }, (_, c) => ({
    position: c + 1,
    url: `https://example.com/${c}`,
    domain: 'example.com',
    title: 'A page',
  })),
});
const page = {
  data: Array.from({ length: 100 }, (_, i) => answer(i)),
  meta: { total: 1000, truncated: true, nextCursor: 'abc' },
};
time('100 answers: pathOverSize under a 16 MB cap', () => pathOverSize(page, 16 * 1024 * 1024), 5_000);
time('100 answers: JSON.stringify (what the door does anyway)', () => JSON.stringify(page), 5_000);

// Issue 50: what each fair-share step costs a request that finds its shares free. Measured on the
// production build (dist/, built first when stale): tsx names every function it creates (esbuild's
// keepNames), which made each closure on the request path look dearer than it is. The key lookup
// is answered by a stub SQL runner once, then from the authenticator's cache, as on a warm
// instance. Bytes per call: what the heap grew by plus what its collections freed, over the loop.
if (buildIsStale()) build();
const dist = <Module>(name: string): Promise<Module> => import(new URL(`../../dist/${name}.js`, import.meta.url).href);
const { createApiKeyAuthenticator } = await dist<typeof ApiKeys>('auth/api-keys');
const { createAdmission } = await dist<typeof Admission>('auth/admission');
const { memoryRateLimitStore } = await dist<typeof RateLimitStore>('auth/rate-limit-store');
const { createWorkspaceConcurrency } = await dist<typeof WorkspaceConcurrency>('auth/workspace-concurrency');
const { createStatementShares } = await dist<typeof StatementShares>('db/statement-shares');
const { watchStalls } = await dist<typeof StallWatch>('http/stall-watch');
const { createRefusalPause } = await dist<typeof RefusalPause>('http/refusal-pause');
const sizeCheck = await dist<typeof ResponseSize>('http/response-size');

const steps: { label: string; micros: number[]; bytes: number[] }[] = [];

function allocatedSince(profiler: GCProfiler, usedBefore: number): number {
  let freed = 0;
  for (const { beforeGC, afterGC } of profiler.stop().statistics) {
    freed += beforeGC.heapStatistics.usedHeapSize - afterGC.heapStatistics.usedHeapSize;
  }
  return getHeapStatistics().used_heap_size - usedBefore + freed;
}

/**
 * CPU µs and bytes per call of `run`, five times over. CPU time (the process's, collector threads
 * included), not elapsed: on a shared machine the elapsed time also counts the others' turns.
 */
async function step(label: string, run: () => unknown, { rounds = 100_000, awaited = false } = {}): Promise<void> {
  const loop = async (count: number) => {
    if (awaited) for (let i = 0; i < count; i++) await run();
    else for (let i = 0; i < count; i++) run();
  };
  await loop(rounds);
  const row = { label, micros: [] as number[], bytes: [] as number[] };
  for (let repeat = 0; repeat < 5; repeat++) {
    const profiler = new GCProfiler();
    profiler.start();
    const usedBefore = getHeapStatistics().used_heap_size;
    const started = process.cpuUsage();
    await loop(rounds);
    const { user, system } = process.cpuUsage(started);
    row.micros.push((user + system) / rounds);
    row.bytes.push(allocatedSince(profiler, usedBefore) / rounds);
  }
  steps.push(row);
}

const key = generateApiKey();
const keyRow = {
  id: key.keyId,
  workspace_id: 'ws_bench',
  secret_hash: key.secretHash,
  scopes: ['reports:read'],
  expires_at: null,
  revoked_at: null,
  plan: 'pro',
  timezone: 'UTC',
};
const stubSql = { query: async (sql: string) => ({ rows: sql.startsWith('SELECT') ? [keyRow] : [] }) };
const authenticator = createApiKeyAuthenticator(stubSql);
const authorization = `Bearer ${key.secret}`;
// A bucket no loop empties: the common path is a request that has its tokens.
const shareConfig = parseConfig({ RATE_LIMIT_PRO: '1000000000/1000000' });
const concurrency = createWorkspaceConcurrency({ perWorkspace: 8, maxWaiting: 256, maxWaitMs: 10_000 });
const store = memoryRateLimitStore();
const admission = createAdmission({ authenticator, store, config: shareConfig, concurrency });
const v1Request = new Request('http://bench.local/api/v1/clients', { headers: { authorization } });
const principal = await authenticator.authenticate(authorization, new Date());
const policy = shareConfig.RATE_LIMIT_PRO;
const buckets = [
  { key: `{ws_bench}:${key.keyId}`, policy },
  { key: '{ws_bench}:workspace', policy },
];
/** A request as app.ts runs it: handled inside its workspace share, which it gives back once answered. */
const tracked = async (handle: () => Promise<unknown>) => {
  const request = concurrency.track(handle);
  await request.result;
  request.release();
};

const statementShares = createStatementShares(4);
const resolvedRows = Promise.resolve([{ id: 'cli_1' }]);
const statement = () => resolvedRows;

// A v1 metrics body: 1 000 (date, model, locale) rows with three competitors each, and its totals.
const counters = {
  totalRuns: 40,
  visibilityCount: 31,
  mentionCount: 57,
  totalMentionCount: 140,
  positionedCount: 29,
  positionSum: 61,
  positiveCount: 20,
  neutralCount: 8,
  negativeCount: 3,
};
const rates = { visibility: 0.775, shareOfVoice: 0.407, averagePosition: 2.1, sentiment: 0.548 };
const competitor = (name: string) => ({
  name,
  visibilityCount: 12,
  mentionCount: 19,
  positionedCount: 10,
  positionSum: 27,
  totalRuns: 40,
  totalMentionCount: 140,
  visibility: 0.3,
  shareOfVoice: 0.135,
  averagePosition: 2.7,
});
const models = ['chatgpt', 'gemini', 'perplexity', 'claude'];
const locales = ['en-US', 'de-DE', 'fr-FR'];
const metricsRow = (i: number) => ({
  date: `2026-10-${String(1 + (i % 30)).padStart(2, '0')}`,
  model: models[i % 4],
  locale: locales[i % 3],
  ...counters,
  ...rates,
  competitors: ['Acme', 'Globex', 'Initech'].map(competitor),
});
const totals = locales.map((locale) => ({
  locale,
  ...counters,
  ...rates,
  byModel: models.map((model) => ({ model, ...counters, ...rates })),
  competitors: ['Acme', 'Globex'].map(competitor),
}));
const rows = Array.from({ length: 1000 }, (_, i) => metricsRow(i));
const metricsBody = {
  data: { projectId: 'prj_1', range: { from: '2026-10-01', to: '2026-10-30' }, rows, totals },
  meta: { total: 1000, truncated: false },
};

// The stall watch and the refusal pause read a few fields of a response and of its socket; an
// emitter emitting 'close' stands for a response that was sent, and is cleared to stand for the
// next one (each request has a response of its own).
const server = new EventEmitter() as Server;
const stalls = watchStalls(server, { stallMs: 15_000, unsentMaxBytes: 64 << 20, unsentWorkspaceMaxBytes: 32 << 20 });
const response = new EventEmitter() as ServerResponse;
const sent = { statusCode: 200, getHeader: () => undefined };
const answered = Object.assign(new EventEmitter(), sent) as unknown as ServerResponse;
const socket = { destroyed: false, pause() {}, resume() {} } as unknown as Socket;
const refusals = createRefusalPause(1_000);

const awaited = { awaited: true };
await step('loop overhead: await a resolved promise', () => resolvedRows, awaited);
await step(
  'admission: admit in its share (key cached, 2 buckets), release',
  () => tracked(() => admission.admit(v1Request)),
  awaited,
);
await step('  authenticate, key cached', () => authenticator.authenticate(authorization, new Date()), awaited);
await step('  token buckets: memory store take, 2 buckets', () => store.take(buckets, Date.now()), awaited);
await step(
  '  meter in its share (admission without the key)',
  () => tracked(() => admission.meter(principal)),
  awaited,
);
await step(
  'workspace share: track + enter + release',
  () => tracked(async () => concurrency.enter('ws_bench', 'automation')),
  awaited,
);
await step('statement: called directly', statement, awaited);
await step('statement share: run, share free', () => statementShares.run('ws_bench', statement), awaited);
await step('response size: pathOverSize, 1 000 metrics rows', () => sizeCheck.pathOverSize(metricsBody, 16 << 20), {
  rounds: 500,
});
await step('  JSON.stringify of the same body (for scale)', () => JSON.stringify(metricsBody), { rounds: 200 });
await step('stall watch: attribute', () => stalls.attribute(response, 'ws_bench'), { rounds: 300_000 });
await step('refusal pause: afterResponse (200)', () => refusals.afterResponse(answered, socket), { rounds: 300_000 });
server.emit('close');

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const spread = (values: number[]) => {
  const [least, most] = [sorted(values)[0]!, sorted(values).at(-1)!];
  const digits = least < 10 ? 3 : 1;
  return `${least.toFixed(digits)}–${most.toFixed(digits)}`;
};
const heading = ['fair-share step (issue 50)'.padEnd(64), 'CPU µs/call, 5 runs'.padStart(19), 'B/call'.padStart(8)];
console.log(`\n${heading.join(' ')}`);
for (const { label, micros, bytes } of steps) {
  const medianBytes = Math.max(0, Math.round(sorted(bytes)[2]!));
  console.log(`${label.padEnd(64)} ${spread(micros).padStart(19)} ${String(medianBytes).padStart(8)}`);
}

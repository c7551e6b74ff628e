// npm run bench:ai — /api/v1/ai-visibility/projects/{id}/metrics for 365 days over HTTP at
// concurrency 8 (each server warmed BENCH_WARMUP_SECONDS first), against hand-written pg
// (hand-sql.ts) that computes the same body — the same rows (capped) and pooled per-locale/per-model
// totals with competitors — served by the bare node:http server over HTTP (issue 23's ≤ 1.1×) and,
// as before, computed and serialised in this process.
import pg from 'pg';
import { connectDatabase } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { AI_MODELS } from '../../src/ai-visibility/common/models.js';
import { addDays } from '../../src/dates/civil-date.js';
import {
  alternate,
  benchDatabase,
  closedLoop,
  fetchCase,
  printTable,
  ratio,
  runBench,
  startBaselineServer,
  startService,
  WARMUP_SECONDS,
} from './harness.js';
import { firstDifference, handAiMetrics } from './hand-sql.js';

const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'pt-BR'];
const YEARS = 3;
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 15) * 1000;

async function prepare(pool: pg.Pool, prisma: ReturnType<typeof connectDatabase>['prisma']) {
  let workspace = await prisma.workspace.findUnique({ where: { slug: 'bench-ai' } });
  if (!workspace) {
    workspace = await prisma.workspace.create({
      data: { id: newId('workspace'), slug: 'bench-ai', name: 'Bench AI', plan: 'scale', timezone: 'UTC' },
    });
    const project = await prisma.aiProject.create({
      data: {
        id: newId('project'),
        workspaceId: workspace.id,
        name: 'Bench project',
        brand: 'Acme',
        competitors: ['Globex', 'Initech'],
        models: [...AI_MODELS],
        locales: LOCALES,
      },
    });
    const end = addDays(new Date().toISOString().slice(0, 10), -1);
    await pool.query(
      `INSERT INTO scans (id, workspace_id, project_id, date, model, locale, total_runs, visibility_count,
         mention_count, total_mention_count, positioned_count, position_sum, positive_count, neutral_count,
         negative_count)
       SELECT 'scn_' || md5(d::text || m || l), $1, $2, d::date, m, l, 40, v, v + 3, v + 40, v, v * 3, v / 2, v / 4,
         v / 8
       FROM generate_series($3::date, $4::date, interval '1 day') AS d, unnest($5::text[]) AS m,
         unnest($6::text[]) AS l, LATERAL (SELECT floor(random() * 40)::int AS v) AS r`,
      [workspace.id, project.id, addDays(end, -(365 * YEARS - 1)), end, [...AI_MODELS], LOCALES],
    );
    await pool.query('VACUUM ANALYZE scans');
  }
  const project = await prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  const scans = (await pool.query('SELECT count(*)::int AS n FROM scans WHERE project_id = $1', [project.id])).rows[0]
    .n as number;
  return { workspace, project, scans };
}

async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 10);
  const { workspace, project, scans } = await prepare(database.pool, database.prisma);
  const key = await createApiKey(database.prisma, {
    workspaceId: workspace.id,
    name: `bench ${Date.now()}`,
    actor: { email: null },
  });
  const env = {
    DATABASE_URL: embedded.url,
    RATE_LIMIT_SCALE: '1000000/1000000',
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
    DATA_CACHE_MAX_BYTES: '0',
  };
  const [server, bare] = await Promise.all([startService(env), startBaselineServer(env)]);
  const to = addDays(new Date().toISOString().slice(0, 10), -1);
  const from = addDays(to, -364);
  // At the row cap (limit=1000), as the hand-written side computes it and as every run before the default limit
  // measured.
  const path = `/api/v1/ai-visibility/projects/${project.id}/metrics?dateFrom=${from}&dateTo=${to}&limit=1000`;
  const headers = { authorization: `Bearer ${key.secret}`, 'accept-encoding': 'identity' };

  const served = await (await fetch(server.baseUrl + path, { headers })).json();
  const difference =
    firstDifference(served, await handAiMetrics(database.pool, project.id, from, to)) ??
    firstDifference(served, await (await fetch(bare.baseUrl + path, { headers })).json());
  if (difference) throw new Error(`the endpoint and the hand-written SQL differ at ${difference}`);
  console.log(
    `${scans.toLocaleString()} scans in the project; ` +
      `${served.meta.total.toLocaleString()} rows in the 365-day range, ${served.data.rows.length} returned; ` +
      "the endpoint's body and the hand-written one agree.",
  );

  // Each server warmed alike first: "cold" is the data (the cache is off), not V8's code.
  for (const baseUrl of [server.baseUrl, bare.baseUrl])
    await closedLoop('warm-up', fetchCase(baseUrl + path, headers), {
      concurrency: 8,
      durationMs: WARMUP_SECONDS * 1000,
    });
  const results = await alternate(
    [
      { label: 'ours (HTTP)', task: fetchCase(server.baseUrl + path, headers) },
      { label: 'hand SQL, bare node:http (HTTP)', task: fetchCase(bare.baseUrl + path, headers) },
      {
        label: 'hand SQL in this process (pg + JSON)',
        task: async () => JSON.stringify(await handAiMetrics(database.pool, project.id, from, to)).length > 0,
      },
    ],
    { concurrency: 8, durationMs: DURATION_MS },
  );
  printTable('AI-visibility metrics, 365 days, 8 models × 8 locales, concurrency 8, no compression', results);
  const overHttp = ratio(results[0]!, results[1]!);
  const inProcess = ratio(results[0]!, results[2]!);
  console.table([
    {
      target: 'p50 ours / hand SQL over HTTP ≤ 1.1 (issue 23)',
      value: overHttp.p50.toFixed(2),
      met: overHttp.p50 <= 1.1,
    },
    { target: 'p50 ours / hand SQL in process ≤ 2', value: inProcess.p50.toFixed(2), met: inProcess.p50 <= 2 },
  ]);
  await Promise.all([server.stop(), bare.stop()]);
  await database.close();
  await embedded.stop();
}

runBench(main);

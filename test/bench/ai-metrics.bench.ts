// npm run bench:ai — /api/v1/ai-visibility/projects/{id}/metrics for 365 days over HTTP at
// concurrency 8, against a hand-written pg baseline that computes the same rows (capped) and
// pooled per-locale/per-model totals (with competitors) and serialises them, as a server would.
import pg from 'pg';
import { connectDatabase } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { AI_MODELS } from '../../src/ai-visibility/models.js';
import { competitorMetrics, ratesOf, type CompetitorCounters, type ScanCounters } from '../../src/ai-visibility/pooled-rates.js';
import { addDays } from '../../src/dates/civil-date.js';
import { alternate, benchDatabase, printTable, ratio, runBench, startService } from './harness.js';

const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'pt-BR'];
const YEARS = 3;
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 15) * 1000;
const CAP = 1000;

async function prepare(pool: pg.Pool, prisma: ReturnType<typeof connectDatabase>['prisma']) {
  let workspace = await prisma.workspace.findUnique({ where: { slug: 'bench-ai' } });
  if (!workspace) {
    workspace = await prisma.workspace.create({ data: { id: newId('workspace'), slug: 'bench-ai', name: 'Bench AI', plan: 'scale', timezone: 'UTC' } });
    const project = await prisma.aiProject.create({
      data: { id: newId('project'), workspaceId: workspace.id, name: 'Bench project', brand: 'Acme', competitors: ['Globex', 'Initech'], models: [...AI_MODELS], locales: LOCALES },
    });
    const end = addDays(new Date().toISOString().slice(0, 10), -1);
    await pool.query(
      `INSERT INTO scans (id, workspace_id, project_id, date, model, locale, total_runs, visibility_count, mention_count, total_mention_count, positioned_count, position_sum, positive_count, neutral_count, negative_count)
       SELECT 'scn_' || md5(d::text || m || l), $1, $2, d::date, m, l, 40, v, v + 3, v + 40, v, v * 3, v / 2, v / 4, v / 8
       FROM generate_series($3::date, $4::date, interval '1 day') AS d, unnest($5::text[]) AS m, unnest($6::text[]) AS l, LATERAL (SELECT floor(random() * 40)::int AS v) AS r`,
      [workspace.id, project.id, addDays(end, -(365 * YEARS - 1)), end, [...AI_MODELS], LOCALES],
    );
    await pool.query('VACUUM ANALYZE scans');
  }
  const project = await prisma.aiProject.findFirstOrThrow({ where: { workspaceId: workspace.id } });
  const scans = (await pool.query('SELECT count(*)::int AS n FROM scans WHERE project_id = $1', [project.id])).rows[0].n as number;
  return { workspace, project, scans };
}

const COUNTERS = 'total_runs AS "totalRuns", visibility_count AS "visibilityCount", mention_count AS "mentionCount", total_mention_count AS "totalMentionCount", positioned_count AS "positionedCount", position_sum AS "positionSum", positive_count AS "positiveCount", neutral_count AS "neutralCount", negative_count AS "negativeCount"';
const SUMS = ['total_runs', 'visibility_count', 'mention_count', 'total_mention_count', 'positioned_count', 'position_sum', 'positive_count', 'neutral_count', 'negative_count'];
const camel = (column: string) => column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

// The same response as the endpoint's, competitors included (issue 10): per row the scan's
// competitor counters with their rates, per locale the competitors pooled over the scans that
// report them (one statement reading only such scans, as the service does).
async function baseline(pool: pg.Pool, projectId: string, from: string, to: string) {
  const [rows, count, totals, competitorTotals] = await Promise.all([
    pool.query(`SELECT date, model, locale, ${COUNTERS}, competitors FROM scans WHERE project_id = $1 AND date BETWEEN $2 AND $3 ORDER BY date DESC, locale, model LIMIT ${CAP}`, [projectId, from, to]),
    pool.query('SELECT count(*)::int AS n FROM scans WHERE project_id = $1 AND date BETWEEN $2 AND $3', [projectId, from, to]),
    pool.query(`SELECT locale, model, ${SUMS.map((c) => `sum(${c})::int AS "${camel(c)}"`).join(', ')} FROM scans WHERE project_id = $1 AND date BETWEEN $2 AND $3 GROUP BY locale, model ORDER BY locale, model`, [projectId, from, to]),
    pool.query(
      `SELECT s.locale, c.name, sum(c."visibilityCount")::float8 AS "visibilityCount", sum(c."mentionCount")::float8 AS "mentionCount", sum(c."positionedCount")::float8 AS "positionedCount",
              sum(c."positionSum")::float8 AS "positionSum", sum(s.total_runs)::float8 AS "totalRuns", sum(s.total_mention_count)::float8 AS "totalMentionCount"
       FROM scans s CROSS JOIN LATERAL jsonb_to_recordset(s.competitors) AS c(name text, "visibilityCount" bigint, "mentionCount" bigint, "positionedCount" bigint, "positionSum" bigint)
       WHERE s.project_id = $1 AND s.competitors <> '[]'::jsonb AND s.date BETWEEN $2 AND $3 GROUP BY s.locale, c.name ORDER BY s.locale, c.name`,
      [projectId, from, to],
    ),
  ]);
  const byLocale = new Map<string, { locale: string; byModel: object[]; counters: ScanCounters }>();
  for (const row of totals.rows) {
    const entry = byLocale.get(row.locale) ?? { locale: row.locale as string, byModel: [] as object[], counters: Object.fromEntries(SUMS.map((c) => [camel(c), 0])) as unknown as ScanCounters };
    for (const c of SUMS) (entry.counters as unknown as Record<string, number>)[camel(c)] += row[camel(c)];
    entry.byModel.push({ ...row, ...ratesOf(row as ScanCounters) });
    byLocale.set(row.locale, entry);
  }
  const body = {
    data: {
      projectId,
      range: { from, to },
      rows: rows.rows.map(({ competitors, ...row }) => ({ ...row, ...ratesOf(row), competitors: (competitors as CompetitorCounters[]).map((competitor) => competitorMetrics(competitor, row.totalRuns, row.totalMentionCount)) })),
      totals: [...byLocale.values()].map((entry) => ({
        locale: entry.locale,
        ...entry.counters,
        ...ratesOf(entry.counters),
        byModel: entry.byModel,
        competitors: competitorTotals.rows.filter((row) => row.locale === entry.locale).map(({ locale: _locale, totalRuns, totalMentionCount, ...competitor }) => competitorMetrics(competitor as CompetitorCounters, totalRuns, totalMentionCount)),
      })),
    },
    meta: { total: count.rows[0].n, truncated: count.rows[0].n > rows.rows.length },
  };
  return JSON.stringify(body);
}

async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 10);
  const { workspace, project, scans } = await prepare(database.pool, database.prisma);
  const key = await createApiKey(database.prisma, { workspaceId: workspace.id, name: `bench ${Date.now()}`, actor: { email: null } });
  const server = await startService({ DATABASE_URL: embedded.url, RATE_LIMIT_SCALE: '1000000/1000000', DATA_CACHE_MAX_BYTES: '0' });
  const to = addDays(new Date().toISOString().slice(0, 10), -1);
  const from = addDays(to, -364);
  const url = `${server.baseUrl}/api/v1/ai-visibility/projects/${project.id}/metrics?dateFrom=${from}&dateTo=${to}`;
  const headers = { authorization: `Bearer ${key.secret}` };

  const served = await (await fetch(url, { headers })).json();
  const expected = JSON.parse(await baseline(database.pool, project.id, from, to));
  if (served.meta.total !== expected.meta.total || served.data.rows.length !== expected.data.rows.length) throw new Error('row counts differ');
  for (const [index, locale] of expected.data.totals.entries()) {
    const ours = served.data.totals[index];
    if (ours.locale !== locale.locale || ours.totalRuns !== locale.totalRuns || Math.abs(ours.visibility - locale.visibility) > 1e-12) throw new Error(`totals differ for ${locale.locale}`);
    if (JSON.stringify(ours.competitors) !== JSON.stringify(locale.competitors)) throw new Error(`competitor totals differ for ${locale.locale}`);
  }
  console.log(`${scans.toLocaleString()} scans in the project; ${served.meta.total.toLocaleString()} rows in the 365-day range, ${served.data.rows.length} returned; the endpoint and the baseline agree.`);

  const results = await alternate(
    [
      {
        label: 'ours (HTTP)',
        task: async () => {
          const response = await fetch(url, { headers });
          await response.arrayBuffer();
          return response.status === 200;
        },
      },
      { label: 'baseline (pg + JSON)', task: async () => (await baseline(database.pool, project.id, from, to)).length > 0 },
    ],
    { concurrency: 8, durationMs: DURATION_MS },
  );
  printTable('AI-visibility metrics, 365 days, 8 models × 8 locales, concurrency 8', results);
  const r = ratio(results[0]!, results[1]!);
  console.table([{ target: 'p50 ours / baseline ≤ 2', value: r.p50.toFixed(2), met: r.p50 <= 2 }]);
  await server.stop();
  await database.close();
  await embedded.stop();
}

runBench(main);

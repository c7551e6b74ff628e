// npm run bench:report — /api/v1/reports/{id}/data for a 12-widget report at last_90_days +
// previous_period, over HTTP at concurrency 8, against hand-written SQL through pg computing the
// same body (hand-sql.ts: one straightforward query per widget and range), served by the bare
// node:http server over HTTP (issue 23's ≤ 1.1×) and, as before, computed in this process. Then
// 10× more facts are added outside the range for the report's client and the endpoint is measured again.
import pg from 'pg';
import { connectDatabase } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { catalog, type ProviderId } from '../../src/reports/catalog.js';
import { addDays } from '../../src/dates/civil-date.js';
import { today } from '../../src/dates/date-range.js';
import { resolveComparePreset, resolveDatePreset } from '../../src/reports/date-presets.js';
import type { ReportDefinition, Widget } from '../../src/reports/definition.js';
import {
  alternate,
  benchDatabase,
  fetchCase,
  printTable,
  ratio,
  runBench,
  startBaselineServer,
  startService,
} from './harness.js';
import { firstDifference, handReportData } from './hand-sql.js';

const TARGET_FACTS = Number(process.env.BENCH_FACTS ?? 5_000_000);
const DAYS = 730;
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 15) * 1000;
const CONCURRENCY = 8;
const DIMENSION_VALUES: Record<string, string[]> = {
  campaign: ['Brand', 'Generic', 'Retargeting', 'Prospecting', 'Shopping'],
  channel: ['Organic Search', 'Paid Search', 'Direct', 'Referral', 'Social', 'Email'],
  device: ['desktop', 'mobile', 'tablet'],
  country: ['US', 'DE', 'GB', 'FR', 'NL'],
};
const ROWS_PER_CLIENT_DAY = (Object.keys(catalog) as ProviderId[]).reduce(
  (sum, p) => sum + 1 + catalog[p].dimensions.reduce((s, d) => s + DIMENSION_VALUES[d]!.length, 0),
  0,
);

const COLUMN_VALUES: Record<string, string> = {
  sessions: 'floor(random() * 2000)',
  engaged_sessions: 'floor(random() * 1200)',
  users: 'floor(random() * 1500)',
  new_users: 'floor(random() * 800)',
  conversions: 'floor(random() * 40)',
  conversion_value: 'round((random() * 3000)::numeric, 2)',
  clicks: 'floor(random() * 500)',
  impressions: 'floor(random() * 20000)',
  cost: 'round((random() * 700)::numeric, 2)',
  reach: 'floor(random() * 15000)',
  position_weighted: 'round((random() * 150000)::numeric, 1)',
};

async function insertFacts(pool: pg.Pool, clientIds: string[], from: string, to: string) {
  for (const provider of Object.keys(catalog) as ProviderId[]) {
    const columns = Object.entries(catalog[provider].metrics)
      .filter(([, m]) => m.kind === 'base')
      .map(([name]) => name);
    const dims = [['', ''], ...catalog[provider].dimensions.flatMap((d) => DIMENSION_VALUES[d]!.map((v) => [d, v]))];
    const values = dims.map(([d, v]) => `('${d}', '${v}')`).join(', ');
    await pool.query(
      `INSERT INTO metric_facts (client_id, provider, date, dimension, dimension_value, ${columns.join(', ')})
       SELECT c.id, '${provider}'::"Provider", d::date, dv.dimension, dv.value,
         ${columns.map((c) => COLUMN_VALUES[c]).join(', ')}
       FROM unnest($1::text[]) AS c(id), generate_series($2::date, $3::date, interval '1 day') AS d,
         (VALUES ${values}) AS dv(dimension, value)
       ON CONFLICT DO NOTHING`,
      [clientIds, from, to],
    );
  }
}

function twelveWidgets(): Widget[] {
  return (Object.keys(catalog) as ProviderId[]).flatMap((provider): Widget[] => {
    const metrics = Object.keys(catalog[provider].metrics);
    return [
      { id: `${provider}-kpi`, type: 'kpi', title: 'KPIs', provider, metrics: metrics.slice(0, 4) },
      {
        id: `${provider}-chart`,
        type: 'line_chart',
        title: 'Trend',
        provider,
        metrics: metrics.slice(0, 2),
        granularity: provider === 'meta_ads' ? 'month' : provider === 'google_ads' ? 'week' : 'day',
      },
      {
        id: `${provider}-table`,
        type: 'table',
        title: 'Breakdown',
        provider,
        metrics: [metrics.at(-1)!, metrics[0]!],
        dimension: catalog[provider].dimensions[0]!,
        limit: 5,
      },
    ];
  });
}

async function prepare(pool: pg.Pool, prisma: ReturnType<typeof connectDatabase>['prisma']) {
  let workspace = await prisma.workspace.findUnique({ where: { slug: 'bench-report' } });
  const endDate = addDays(new Date().toISOString().slice(0, 10), -1);
  if (!workspace) {
    const started = Date.now();
    workspace = await prisma.workspace.create({
      data: { id: newId('workspace'), slug: 'bench-report', name: 'Bench', plan: 'scale', timezone: 'UTC' },
    });
    const clientCount = Math.ceil(TARGET_FACTS / (DAYS * ROWS_PER_CLIENT_DAY));
    const clientIds: string[] = [];
    for (let i = 0; i < clientCount; i++) {
      const client = await prisma.client.create({
        data: { id: newId('client'), workspaceId: workspace.id, name: `Bench client ${i}` },
      });
      clientIds.push(client.id);
    }
    process.stdout.write(
      `seeding ${clientCount} clients × ${DAYS} days × ${ROWS_PER_CLIENT_DAY} rows ` +
        `≈ ${(clientCount * DAYS * ROWS_PER_CLIENT_DAY).toLocaleString()} facts… `,
    );
    for (let i = 0; i < clientIds.length; i += 10)
      await insertFacts(pool, clientIds.slice(i, i + 10), addDays(endDate, -(DAYS - 1)), endDate);
    await pool.query('VACUUM ANALYZE metric_facts');
    console.log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  // Two clients with the same kind of data in range: "Bench client 0" also gets ten times its
  // history before the range, so the two can be measured side by side.
  const [historyClient, plainClient] = await Promise.all(
    ['Bench client 0', 'Bench client 1'].map((name) =>
      prisma.client.findFirstOrThrow({ where: { workspaceId: workspace!.id, name } }),
    ),
  );
  const definition: ReportDefinition = {
    widgets: twelveWidgets(),
    dateConfig: { datePreset: 'last_90_days', comparePreset: 'previous_period', timezone: 'UTC' },
  };
  const reportFor = async (clientId: string) =>
    (await prisma.report.findFirst({ where: { workspaceId: workspace!.id, clientId } })) ??
    prisma.report.create({
      data: {
        id: newId('report'),
        workspaceId: workspace!.id,
        clientId,
        name: 'Bench 12 widgets',
        definition: definition as object,
      },
    });
  const [historyReport, plainReport] = await Promise.all([reportFor(historyClient!.id), reportFor(plainClient!.id)]);
  const count = async (clientId: string) =>
    (
      await pool.query('SELECT count(*)::int AS n, min(date) AS first FROM metric_facts WHERE client_id = $1', [
        clientId,
      ])
    ).rows[0] as { n: number; first: string };
  const plain = await count(plainClient!.id);
  let history = await count(historyClient!.id);
  if (history.n < 5 * plain.n) {
    await insertFacts(pool, [historyClient!.id], addDays(history.first, -DAYS * 10), addDays(history.first, -1));
    await pool.query('ANALYZE metric_facts');
    history = await count(historyClient!.id);
  }
  const facts = (await pool.query('SELECT count(*)::int AS n FROM metric_facts')).rows[0].n as number;
  return { workspace, plainReport, historyReport, facts, plainFacts: plain.n, historyFacts: history.n };
}

async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 10);
  const { workspace, plainReport, historyReport, facts, plainFacts, historyFacts } = await prepare(
    database.pool,
    database.prisma,
  );
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
  const report = {
    id: plainReport.id,
    clientId: plainReport.clientId!,
    currency: (await database.prisma.client.findUniqueOrThrow({ where: { id: plainReport.clientId! } })).currency,
    definition: plainReport.definition as unknown as ReportDefinition,
  };
  const range = resolveDatePreset('last_90_days', today('UTC', new Date()));
  const compare = resolveComparePreset('previous_period', range)!;
  const pathOf = (id: string) => `/api/v1/reports/${id}/data?datePreset=last_90_days&comparePreset=previous_period`;
  const headers = { authorization: `Bearer ${key.secret}`, 'accept-encoding': 'identity' };

  // The same body first: the endpoint's, the hand-written one here and the bare server's.
  const served = await (await fetch(server.baseUrl + pathOf(report.id), { headers })).json();
  const difference =
    firstDifference(served, await handReportData(database.pool, report, range, compare)) ??
    firstDifference(served, await (await fetch(bare.baseUrl + pathOf(report.id), { headers })).json());
  if (difference) throw new Error(`the endpoint and the hand-written SQL differ at ${difference}`);
  console.log(`${facts.toLocaleString()} facts; the endpoint's body and the hand-written one agree.`);

  const options = { concurrency: CONCURRENCY, durationMs: DURATION_MS };
  const first = await alternate(
    [
      { label: 'ours (HTTP)', task: fetchCase(server.baseUrl + pathOf(report.id), headers) },
      { label: 'hand SQL, bare node:http (HTTP)', task: fetchCase(bare.baseUrl + pathOf(report.id), headers) },
      {
        label: 'hand SQL in this process (pg, per widget)',
        task: async () => JSON.stringify(await handReportData(database.pool, report, range, compare)).length > 0,
      },
    ],
    options,
  );
  printTable('Report data, 12 widgets, last_90_days + previous_period, concurrency 8, no compression', first);
  const second = await alternate(
    [
      {
        label: `ours, client with ${plainFacts.toLocaleString()} facts`,
        task: fetchCase(server.baseUrl + pathOf(report.id), headers),
      },
      {
        label: `ours, client with ${historyFacts.toLocaleString()} facts (10× more outside the range)`,
        task: fetchCase(server.baseUrl + pathOf(historyReport.id), headers),
      },
    ],
    options,
  );
  printTable('Same report on two clients: plain history vs 10× more facts outside the range', second);

  const overHttp = ratio(first[0]!, first[1]!);
  const inProcess = ratio(first[0]!, first[2]!);
  const growth = second[1]!.p50 / second[0]!.p50;
  console.log('\nTargets:');
  console.table([
    {
      target: 'p50 ours / hand SQL over HTTP ≤ 1.1 (issue 23)',
      value: overHttp.p50.toFixed(2),
      met: overHttp.p50 <= 1.1,
    },
    { target: 'p50 ours / hand SQL in process ≤ 2', value: inProcess.p50.toFixed(2), met: inProcess.p50 <= 2 },
    { target: 'p99 ours ≤ 100 ms', value: first[0]!.p99.toFixed(1), met: first[0]!.p99 <= 100 },
    { target: 'p50 growth with 10× facts outside the range ≤ 1.5', value: growth.toFixed(2), met: growth <= 1.5 },
  ]);
  await Promise.all([server.stop(), bare.stop()]);
  await database.close();
  await embedded.stop();
}

runBench(main);

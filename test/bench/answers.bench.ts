// npm run bench:answers — prompts, answers and sources at scale: one project with 1 million
// answers and about 3 million citations (365 days × 4 models × 3 locales × 230 prompts, 0–6
// citations each), generated once in SQL into the persistent bench database. Each measurement
// runs beside the equivalent hand-written SQL in the same run:
//   sources over 90 days (p50 ≤ 150 ms)       vs the plain GROUP BY over the citations
//   an answers page at depth 0 / ½ / end (p50 ≤ 20 ms) vs the same keyset SELECT + JSON
//   exporting every answer as NDJSON (≥ 50 000 rows/s, server RSS growth ≤ 50 MB) vs pg-cursor in-process
//   search queries over 90 days (p50 ≤ 150 ms) vs the plain GROUP BY with a distinct count
//   opportunities over 90 days (p50 ≤ 200 ms)   vs plain GROUP BYs over answers, citations and pages read
//   ingesting runs over HTTP (≥ 5 000 runs/s) vs one unnest INSERT per table of the same rows
// Every run carries 4 searches and 6 pages read (issue 42), generated and ingested alike.
import pg from 'pg';
import Cursor from 'pg-cursor';
import { readFileSync } from 'node:fs';
import { connectDatabase } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { createApiKey } from '../../src/auth/key-management.js';
import { addDays } from '../../src/dates/civil-date.js';
import { alternate, benchDatabase, printTable, runBench, startService, type LoadResult } from './harness.js';
import { generateSearchesAndReads, opportunitiesBaseline, retrievedJson, SEARCH_QUERIES_JSON, searchQueriesBaseline } from './searches.js';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
/** BENCH_CASES: only these cases, comma-separated (sources, why, pages, export, ingest); all when unset. */
const CASES = process.env.BENCH_CASES?.split(',').map((name) => name.trim());
const measures = (name: string) => !CASES || CASES.includes(name);
const DAYS = 365;
const MODELS = ['chatgpt', 'gemini', 'perplexity', 'claude'];
const LOCALES = ['en-US', 'de-DE', 'fr-FR'];
const PROMPTS = 230;
const DOMAINS = ['acme.com', 'reddit.com', 'wikipedia.org', 'youtube.com', 'g2.com', 'trustpilot.com', 'forbes.com', 'nytimes.com', 'globex.com', 'initech.com', 'medium.com', 'bbc.co.uk', 'example.co.uk', 'capterra.com', 'quora.com'];

const EXPECTED_ANSWERS = DAYS * MODELS.length * LOCALES.length * PROMPTS;

/** Generation runs statements of minutes: its own pool, without the service's query timeout. */
async function prepare(url: string, prisma: ReturnType<typeof connectDatabase>['prisma']) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await generate(pool, prisma);
  } finally {
    await pool.end();
  }
}

async function generate(pool: pg.Pool, prisma: ReturnType<typeof connectDatabase>['prisma']) {
  let workspace = await prisma.workspace.findUnique({ where: { slug: 'bench-answers' } });
  if (workspace) {
    const project = await prisma.aiProject.findFirst({ where: { workspaceId: workspace.id, name: 'Bench answers' } });
    const answers = project ? (await pool.query('SELECT count(*)::int AS n FROM ai_answers WHERE project_id = $1', [project.id])).rows[0].n : 0;
    if (project && answers === EXPECTED_ANSWERS) return { workspace, project };
    // An interrupted generation: start again.
    await prisma.workspace.delete({ where: { id: workspace.id } });
  }
  console.log('Generating 1 million answers and their citations (once; a few minutes)…');
  workspace = await prisma.workspace.create({ data: { id: newId('workspace'), slug: 'bench-answers', name: 'Bench answers', plan: 'scale', timezone: 'UTC' } });
  const project = await prisma.aiProject.create({
    data: {
      id: newId('project'), workspaceId: workspace.id, name: 'Bench answers', brand: 'Acme', competitors: ['Globex', 'Initech'], models: MODELS, locales: LOCALES,
      domains: ['acme.com'], competitorDomains: [{ name: 'Globex', domains: ['globex.com'] }, { name: 'Initech', domains: ['initech.com'] }],
    },
  });
  const end = addDays(new Date().toISOString().slice(0, 10), -1);
  const values = [workspace.id, project.id];
  await pool.query(
    `INSERT INTO ai_prompts (id, workspace_id, project_id, text, topic, tags, created_at)
     SELECT 'pmt_' || substr(md5('p' || n), 1, 20), $1, $2, 'Which CRM is best for use case ' || n || '?', (ARRAY['recommendations','comparisons','reviews','pricing'])[1 + n % 4], ARRAY['t' || (n % 7)], now() + n * interval '1 millisecond'
     FROM generate_series(1, ${PROMPTS}) AS n`,
    values,
  );
  await pool.query(
    `INSERT INTO scans (id, workspace_id, project_id, date, model, locale, total_runs, visibility_count, mention_count, total_mention_count, positioned_count, position_sum, positive_count, neutral_count, negative_count, answer_count)
     SELECT 'scn_' || substr(md5(d::text || m || l), 1, 20), $1, $2, d::date, m, l, 0, 0, 0, 0, 0, 0, 0, 0, 0, ${PROMPTS}
     FROM generate_series($3::date, $4::date, interval '1 day') AS d, unnest($5::text[]) AS m, unnest($6::text[]) AS l`,
    [...values, addDays(end, -(DAYS - 1)), end, MODELS, LOCALES],
  );
  // Answers with 0–6 citations from a skewed mix of domains, 4 searches and 6 pages read, as JSON
  // the way ingestion stores them (the rows for aggregation are derived from that JSON below).
  await pool.query(
    `INSERT INTO ai_answers (id, workspace_id, project_id, scan_id, prompt_id, date, model, locale, text, brand_mentions, total_mentions, position, sentiment, competitors, citations, search_queries, retrieved)
     SELECT 'ans_' || substr(md5(s.id || p.id), 1, 20), s.workspace_id, s.project_id, s.id, p.id, s.date, s.model, s.locale,
       'For most teams, ' || CASE WHEN r.mentioned THEN 'Acme, Globex and Initech' ELSE 'Globex and Initech' END || ' are the usual choices. ' || repeat('They differ in price, support, integrations and reporting; ', 4) || 'Check recent reviews before you decide.',
       CASE WHEN r.mentioned THEN 1 + (r.roll * 10)::int % 2 ELSE 0 END, 3, CASE WHEN r.mentioned THEN 1 + (r.roll * 100)::int % 3 ELSE NULL END,
       CASE WHEN r.mentioned THEN (ARRAY['positive','neutral','negative'])[1 + (r.roll * 1000)::int % 3] ELSE NULL END,
       '[{"name":"Globex","mentions":1,"position":2}]'::jsonb, c.citations, ${SEARCH_QUERIES_JSON}, ${retrievedJson(DOMAINS)}
     FROM scans s CROSS JOIN ai_prompts p CROSS JOIN LATERAL (SELECT random() < 0.45 AS mentioned, random() AS roll) r
       CROSS JOIN LATERAL (SELECT coalesce((SELECT jsonb_agg(jsonb_build_object('position', k, 'url', 'https://www.' || d.domain || '/page/' || (r.roll * 1000)::int % 50, 'domain', d.domain, 'title', NULL) ORDER BY k)
                 FROM generate_series(1, (r.roll * 7)::int % 7) AS k, LATERAL (SELECT (ARRAY[${DOMAINS.map((domain) => `'${domain}'`).join(',')}])[1 + floor(power(random(), 2) * ${DOMAINS.length})::int] AS domain) d), '[]'::jsonb) AS citations) c
     WHERE s.project_id = $1 AND p.project_id = $1`,
    [project.id],
  );
  await pool.query(
    `INSERT INTO ai_citations (answer_id, position, workspace_id, project_id, prompt_id, date, model, locale, url, domain)
     SELECT a.id, (c->>'position')::int, a.workspace_id, a.project_id, a.prompt_id, a.date, a.model, a.locale, c->>'url', c->>'domain'
     FROM ai_answers a, jsonb_array_elements(a.citations) AS c WHERE a.project_id = $1`,
    [project.id],
  );
  await generateSearchesAndReads(pool, project.id);
  // The scans' counters are their runs' sums, as ingestion would have derived them.
  await pool.query(
    `UPDATE scans s SET total_runs = x.runs, visibility_count = x.visible, mention_count = x.mentions, total_mention_count = x.total, positioned_count = x.positioned, position_sum = x.position_sum,
       positive_count = x.positive, neutral_count = x.neutral, negative_count = x.negative, citation_count = x.citations
     FROM (SELECT scan_id, count(*) AS runs, count(*) FILTER (WHERE brand_mentions > 0) AS visible, sum(brand_mentions) AS mentions, sum(total_mentions) AS total, count(position) AS positioned,
             coalesce(sum(position), 0) AS position_sum, count(*) FILTER (WHERE sentiment = 'positive') AS positive, count(*) FILTER (WHERE sentiment = 'neutral') AS neutral,
             count(*) FILTER (WHERE sentiment = 'negative') AS negative, sum(jsonb_array_length(citations)) AS citations
           FROM ai_answers WHERE project_id = $1 GROUP BY scan_id) x
     WHERE s.id = x.scan_id`,
    [project.id],
  );
  await pool.query('VACUUM ANALYZE ai_prompts, scans, ai_answers, ai_citations, ai_source_totals, ai_search_queries, ai_retrievals');
  return { workspace, project };
}

/** The plain way to ask the question: group the citations of the range, count, divide. */
async function sourcesBaseline(pool: pg.Pool, projectId: string, from: string, to: string): Promise<string> {
  const [rows, runs] = await Promise.all([
    pool.query(
      `SELECT locale, domain, count(*)::int AS citations, count(DISTINCT answer_id)::int AS "answersCiting", sum(count(*)) OVER (PARTITION BY locale)::int AS "localeCitations"
       FROM ai_citations WHERE project_id = $1 AND date BETWEEN $2 AND $3 GROUP BY locale, domain ORDER BY locale, citations DESC, domain`,
      [projectId, from, to],
    ),
    pool.query('SELECT locale, count(*)::int AS n FROM ai_answers WHERE project_id = $1 AND date BETWEEN $2 AND $3 GROUP BY locale', [projectId, from, to]),
  ]);
  const runsOf = new Map(runs.rows.map((row) => [row.locale, row.n]));
  return JSON.stringify({ data: { projectId, range: { from, to }, rows: rows.rows.map((row) => ({ ...row, citationShare: row.citations / row.localeCitations, answerShare: row.answersCiting / runsOf.get(row.locale) })) } });
}

const PAGE_SQL = `SELECT a.id, a.project_id AS "projectId", a.prompt_id AS "promptId", pr.text AS prompt, a.date, a.model, a.locale, a.text, a.brand_mentions AS "brandMentions",
  a.total_mentions AS "totalMentions", a.position, a.sentiment, a.competitors, a.citations, a.search_queries AS "searchQueries", a.retrieved
  FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id
  WHERE a.project_id = $1 AND a.date BETWEEN $2 AND $3 AND ($4::date IS NULL OR (a.date, a.id) < ($4::date, $5::text)) ORDER BY a.date DESC, a.id DESC LIMIT 100`;

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 10);
  const { pool } = database;
  const { workspace, project } = await prepare(embedded.url, database.prisma);
  const counts = (await pool.query('SELECT (SELECT count(*) FROM ai_answers WHERE project_id = $1)::int AS answers, (SELECT count(*) FROM ai_citations WHERE project_id = $1)::int AS citations', [project.id])).rows[0];
  console.log(`${counts.answers.toLocaleString()} answers and ${counts.citations.toLocaleString()} citations in the project.`);
  const key = await createApiKey(database.prisma, { workspaceId: workspace.id, name: `bench ${Date.now()}`, actor: { email: null } });
  const server = await startService({ DATABASE_URL: embedded.url, RATE_LIMIT_SCALE: '1000000/1000000', WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000', DATA_CACHE_MAX_BYTES: '0', INGEST_TOKEN: 'b'.repeat(40) });
  const headers = { authorization: `Bearer ${key.secret}` };
  const base = `${server.baseUrl}/api/v1/ai-visibility/projects/${project.id}`;
  const to = addDays(new Date().toISOString().slice(0, 10), -1);
  const from = addDays(to, -89);
  const get = async (url: string) => {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    return response.status === 200;
  };
  const summary: { measure: string; ours: string; baseline: string; target: string; met: boolean }[] = [];

  // Sources over 90 days.
  if (measures('sources')) {
    const served = await (await fetch(`${base}/sources?dateFrom=${from}&dateTo=${to}&limit=500`, { headers })).json();
    const expected = JSON.parse(await sourcesBaseline(pool, project.id, from, to));
    for (const row of expected.data.rows) {
      const ours = served.data.rows.find((candidate: { locale: string; domain: string }) => candidate.locale === row.locale && candidate.domain === row.domain);
      if (!ours || ours.citations !== row.citations || ours.answersCiting !== row.answersCiting || Math.abs(ours.answerShare - row.answerShare) > 1e-12) throw new Error(`sources differ at ${row.locale} ${row.domain}`);
    }
    const sources = await alternate(
      [
        { label: 'sources 90 days (HTTP)', task: () => get(`${base}/sources?dateFrom=${from}&dateTo=${to}`) },
        { label: 'plain GROUP BY over citations + JSON', task: async () => (await sourcesBaseline(pool, project.id, from, to)).length > 0 },
      ],
      { concurrency: 4, durationMs: DURATION_MS },
    );
    printTable(`Sources, 90 days (${served.data.rows.length} rows; the endpoint and the baseline agree)`, sources);
    summary.push({ measure: 'sources 90 days p50', ours: `${sources[0]!.p50.toFixed(1)} ms`, baseline: `${sources[1]!.p50.toFixed(1)} ms`, target: '≤ 150 ms', met: sources[0]!.p50 <= 150 });
  }
  // Search queries and opportunities over 90 days, one client (latency, as the answer pages).
  if (measures('why')) {
    const queries = await (await fetch(`${base}/search-queries?dateFrom=${from}&dateTo=${to}&limit=500`, { headers })).json();
    const plainQueries = JSON.parse(await searchQueriesBaseline(pool, project.id, from, to));
    for (const row of queries.data) {
      const plain = plainQueries.find((candidate: { locale: string; query: string }) => candidate.locale === row.locale && candidate.query === row.query);
      if (!plain || plain.runs !== row.runs || plain.promptCount !== row.promptCount || plain.visibilityCount !== row.visibilityCount) throw new Error(`search queries differ at ${row.locale} ${row.query}`);
    }
    const whyResults = await alternate(
      [
        { label: 'search queries 90 days (HTTP)', task: () => get(`${base}/search-queries?dateFrom=${from}&dateTo=${to}`) },
        { label: 'plain GROUP BY + distinct count + JSON', task: async () => (await searchQueriesBaseline(pool, project.id, from, to)).length > 0 },
        { label: 'opportunities 90 days (HTTP)', task: () => get(`${base}/opportunities?dateFrom=${from}&dateTo=${to}`) },
        { label: 'plain GROUP BYs over answers, citations, pages + JSON', task: async () => (await opportunitiesBaseline(pool, project.id, ['acme.com'], from, to)).length > 0 },
      ],
      { concurrency: 1, durationMs: DURATION_MS },
    );
    printTable(`Search queries (${plainQueries.length} rows) and opportunities, 90 days, one client`, whyResults);
    summary.push({ measure: 'search queries 90 days p50', ours: `${whyResults[0]!.p50.toFixed(1)} ms`, baseline: `${whyResults[1]!.p50.toFixed(1)} ms`, target: '≤ 150 ms', met: whyResults[0]!.p50 <= 150 });
    summary.push({ measure: 'opportunities 90 days p50', ours: `${whyResults[2]!.p50.toFixed(1)} ms`, baseline: `${whyResults[3]!.p50.toFixed(1)} ms`, target: '≤ 200 ms', met: whyResults[2]!.p50 <= 200 });
  }
  const yearFrom = addDays(to, -(DAYS - 1));
  const total = counts.answers;
  // Answer pages at depth 0, the middle and the end of a year.
  if (measures('pages')) {
    const depths = [0, Math.floor(total / 2), total - 50];
    const pageResults: LoadResult[] = [];
    for (const depth of depths) {
      const after = depth ? (await pool.query(`SELECT to_char(date, 'YYYY-MM-DD') AS date, id FROM ai_answers WHERE project_id = $1 ORDER BY date DESC, id DESC OFFSET $2 LIMIT 1`, [project.id, depth])).rows[0] : null;
      const cursor = after ? Buffer.from(JSON.stringify([after.date, after.id])).toString('base64url') : null;
      const url = `${base}/answers?dateFrom=${yearFrom}&dateTo=${to}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
      const results = await alternate(
        [
          { label: `answers page at ${depth.toLocaleString()} (HTTP)`, task: () => get(url) },
          { label: `keyset SELECT + JSON at ${depth.toLocaleString()}`, task: async () => JSON.stringify((await pool.query(PAGE_SQL, [project.id, yearFrom, to, after?.date ?? null, after?.id ?? null])).rows).length > 0 },
        ],
        // One client paging: the latency a reader of the pages sees (at concurrency 4 on two cores
        // the p50 is queueing behind the other three, i.e. throughput).
        { concurrency: 1, durationMs: DURATION_MS / 2 },
      );
      pageResults.push(...results);
      summary.push({ measure: `answers page p50 at depth ${depth.toLocaleString()}`, ours: `${results[0]!.p50.toFixed(1)} ms`, baseline: `${results[1]!.p50.toFixed(1)} ms`, target: '≤ 20 ms', met: results[0]!.p50 <= 20 });
    }
    printTable('Answer pages of 100, a year of answers, by cursor depth, one client', pageResults);
  }
  // Exporting every answer: rows per second and the server's memory while it streams.
  if (measures('export')) {
    const rssBefore = rssOf(server.pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(server.pid))), 100);
    let started = performance.now();
    const response = await fetch(`${base}/answers?dateFrom=${yearFrom}&dateTo=${to}`, { headers: { ...headers, accept: 'application/x-ndjson' } });
    let rows = 0;
    const reader = response.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) for (const byte of chunk.value) if (byte === 10) rows++;
    const exportSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    started = performance.now();
    const client = await pool.connect();
    const cursor = client.query(new Cursor(PAGE_SQL.replace('LIMIT 100', ''), [project.id, yearFrom, to, null, null]));
    let baselineRows = 0;
    for (let batch = await cursor.read(1000); batch.length; batch = await cursor.read(1000)) for (const row of batch) baselineRows += JSON.stringify(row).length > 0 ? 1 : 0;
    await cursor.close();
    client.release();
    const baselineSeconds = (performance.now() - started) / 1000;
    console.log(`\nExport: ${rows.toLocaleString()} answers in ${exportSeconds.toFixed(1)} s over HTTP; pg-cursor in-process read ${baselineRows.toLocaleString()} in ${baselineSeconds.toFixed(1)} s; server RSS ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MB`);
    summary.push({ measure: 'export every answer (NDJSON)', ours: `${Math.round(rows / exportSeconds).toLocaleString()} rows/s`, baseline: `${Math.round(baselineRows / baselineSeconds).toLocaleString()} rows/s`, target: '≥ 50 000 rows/s', met: rows === total && rows / exportSeconds >= 50_000 });
    summary.push({ measure: 'server RSS growth during export', ours: `${(rssPeak - rssBefore).toFixed(0)} MB`, baseline: '—', target: '≤ 50 MB', met: rssPeak - rssBefore <= 50 });
  }
  // Ingest: 40 scans × 230 runs over HTTP into a scratch project, vs unnest INSERTs of the same rows.
  if (measures('ingest')) {
    const scratch = await database.prisma.aiProject.create({ data: { id: newId('project'), workspaceId: workspace.id, name: `Ingest ${Date.now()}`, brand: 'Acme', competitors: ['Globex'], models: MODELS, locales: LOCALES } });
    const runsOf = (seed: number) => Array.from({ length: PROMPTS }, (_, index) => ({
      prompt: `Which CRM is best for use case ${index}?`, answer: `For most teams, Acme and Globex are the usual choices (${seed}/${index}). ${'They differ in price, support, integrations and reporting; '.repeat(4)}`,
      brandMentions: index % 2, totalMentions: 2, position: index % 2 ? 1 : null, sentiment: index % 2 ? 'positive' : null, competitors: [{ name: 'Globex', mentions: 1, position: 2 }],
      citations: Array.from({ length: index % 6 }, (_, k) => ({ url: `https://www.${DOMAINS[(index + k) % DOMAINS.length]}/page/${k}`, title: 'A page' })),
      searchQueries: Array.from({ length: 4 }, (_, k) => `best crm for use case ${(index + k * 57) % 460}`),
      retrieved: Array.from({ length: 6 }, (_, k) => ({ url: `https://www.${DOMAINS[(index + k) % DOMAINS.length]}/page/${k}`, title: 'A page' })),
    }));
    const lines = Array.from({ length: 40 }, (_, index) => ({ project: scratch.id, date: addDays(to, -index), model: MODELS[index % MODELS.length], locale: LOCALES[index % LOCALES.length], runs: runsOf(index) }));
    const body = lines.map((line) => JSON.stringify(line)).join('\n');
    let started = performance.now();
    const ingested = await fetch(`${server.baseUrl}/internal/ingest/scans`, { method: 'POST', headers: { authorization: `Bearer ${'b'.repeat(40)}` }, body });
    if (ingested.status !== 200) throw new Error(`ingest failed: ${await ingested.text()}`);
    const ingestSeconds = (performance.now() - started) / 1000;
    const runCount = lines.length * PROMPTS;
    // The same rows again, in a transaction rolled back afterwards (the ingested ones make way first, untimed).
    const baselineClient = await pool.connect();
    await baselineClient.query('BEGIN');
    await baselineClient.query('DELETE FROM ai_answers WHERE project_id = $1', [scratch.id]);
    started = performance.now();
    const ids = lines.flatMap((line, s) => line.runs.map((_, r) => `ans_base${String(s).padStart(4, '0')}${String(r).padStart(8, '0')}`));
    const promptIds = (await pool.query('SELECT id, text FROM ai_prompts WHERE project_id = $1', [scratch.id])).rows;
    const promptOf = new Map(promptIds.map((row) => [row.text, row.id]));
    const scanOf = new Map((await pool.query('SELECT id, date::text AS date FROM scans WHERE project_id = $1', [scratch.id])).rows.map((row) => [row.date, row.id]));
    const flat = lines.flatMap((line) => line.runs.map((run) => ({ line, run })));
    await baselineClient.query(
      `INSERT INTO ai_answers (id, workspace_id, project_id, scan_id, prompt_id, date, model, locale, text, brand_mentions, total_mentions, position, sentiment, competitors, citations, search_queries, retrieved)
       SELECT id, $1, $2, scan, prompt, date, model, locale, text, brand, 2, position, sentiment, competitors::jsonb, citations::jsonb, searches::jsonb, retrieved::jsonb
       FROM unnest($3::text[], $4::text[], $5::text[], $6::date[], $7::text[], $8::text[], $9::text[], $10::int[], $11::int[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[]) AS u(scan, id, prompt, date, model, locale, text, brand, position, sentiment, competitors, citations, searches, retrieved)`,
      [workspace.id, scratch.id, flat.map(({ line }) => scanOf.get(line.date)), ids, flat.map(({ run }) => promptOf.get(run.prompt)), flat.map(({ line }) => line.date), flat.map(({ line }) => line.model), flat.map(({ line }) => line.locale), flat.map(({ run }) => run.answer),
        flat.map(({ run }) => run.brandMentions), flat.map(({ run }) => run.position), flat.map(({ run }) => run.sentiment), flat.map(({ run }) => JSON.stringify(run.competitors)), flat.map(({ run }) => JSON.stringify(run.citations)),
        flat.map(({ run }) => JSON.stringify(run.searchQueries)), flat.map(({ run }) => JSON.stringify(run.retrieved))],
    );
    const baselineIngestSeconds = (performance.now() - started) / 1000;
    await baselineClient.query('ROLLBACK');
    baselineClient.release();
    summary.push({ measure: `ingest ${runCount.toLocaleString()} runs over HTTP`, ours: `${Math.round(runCount / ingestSeconds).toLocaleString()} runs/s`, baseline: `${Math.round(runCount / baselineIngestSeconds).toLocaleString()} runs/s (answers only, with their JSON)`, target: '≥ 5 000 runs/s', met: runCount / ingestSeconds >= 5_000 });
    await database.prisma.aiProject.delete({ where: { id: scratch.id } });
  }
  console.log('\nTargets');
  console.table(summary);
  await server.stop();
  await database.close();
  await embedded.stop();
}

runBench(main);

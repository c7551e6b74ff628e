// A scan's runs as rows: prompts (created on first sight), answers (with the ids of their query
// set and named-competitor set, and their distinct pages read), their citations, the sets not
// stored yet, and the per-scan totals per domain and per page that sources and opportunities
// read. Written in the ingest transaction, column-wise (columns.ts) so thousands of runs cost a
// handful of statements.
import type pg from 'pg';
import {
  competitorsNamed,
  distinctQueryKeys,
  normaliseUrl,
  orderedMembers,
  pageTotalsOf,
  pagesReadOf,
  registrableDomain,
  retrievedPages,
  sourceTotalsOf,
  stringSetId,
  type PageRead,
  type Run,
} from '../ai-visibility/index.js';
import { newId } from '../db/ids.js';
import { columnsOf, insertColumns, pushRow, ROWS_PER_STATEMENT } from './columns.js';

export interface StoredScan {
  scanId: string;
  workspaceId: string;
  /** False when the scan existed and changed: its earlier runs go. */
  inserted: boolean;
  scan: { projectId: string; date: string; model: string; locale: string; runs?: Run[] | undefined };
}

export async function writeRuns(client: pg.PoolClient | pg.Client, scans: readonly StoredScan[]): Promise<void> {
  const replaced = scans.filter((stored) => !stored.inserted).map((stored) => stored.scanId);
  if (replaced.length) {
    await client.query('DELETE FROM ai_source_totals WHERE scan_id = ANY($1::text[])', [replaced]);
    await client.query('DELETE FROM ai_page_totals WHERE scan_id = ANY($1::text[])', [replaced]);
    await client.query('DELETE FROM ai_answers WHERE scan_id = ANY($1::text[])', [replaced]);
  }
  const withRuns = scans.filter((stored) => stored.scan.runs?.length);
  if (!withRuns.length) return;

  const promptIds = await ensurePrompts(client, withRuns);
  // A statement's worth of runs is built, then written while the next is built: the rows' URL
  // parsing and JSON cost about as much as PostgreSQL's first INSERT of the group, and a yield
  // after each scan lets the queued statements go out meanwhile. Groups are written in order, so
  // a group's answers exist before its citations, searches and pages read.
  let rows = emptyRows();
  // Sets already queued in this ingestion: each is written once.
  const setsSeen = new Set<string>();
  let written: Promise<void> = Promise.resolve();
  const flush = () => {
    const group = rows;
    rows = emptyRows();
    written = written.then(() => insertRows(client, group));
    // Seen when awaited below; until then a failure must not count as unhandled.
    written.catch(() => {});
  };
  for (const stored of withRuns) {
    if (rows.answers.id.length && rows.answers.id.length + stored.scan.runs!.length > ROWS_PER_STATEMENT) flush();
    pushScanRows(rows, stored, promptIds, setsSeen);
    await new Promise(setImmediate);
  }
  flush();
  await written;
}

type RunRows = ReturnType<typeof emptyRows>;

const emptyRows = () => ({
  answers: columnsOf([
    'id',
    'workspace',
    'project',
    'scan',
    'prompt',
    'date',
    'model',
    'locale',
    'text',
    'brand',
    'total',
    'position',
    'sentiment',
    'competitors',
    'citations',
    'searches',
    'retrieved',
    'querySet',
    'competitorSet',
    'pagesRead',
  ] as const),
  citations: columnsOf([
    'answer',
    'position',
    'workspace',
    'project',
    'prompt',
    'date',
    'model',
    'locale',
    'url',
    'domain',
  ] as const),
  sets: columnsOf(['project', 'id', 'workspace', 'members'] as const),
  pages: columnsOf([
    'scan',
    'url',
    'workspace',
    'project',
    'date',
    'model',
    'locale',
    'domain',
    'retrievals',
    'notCited',
  ] as const),
  sources: columnsOf([
    'scan',
    'domain',
    'workspace',
    'project',
    'date',
    'model',
    'locale',
    'citations',
    'answers',
    'retrievals',
    'notCited',
    'brand',
    'gapCitations',
    'gapAnswers',
    'gapCompetitors',
  ] as const),
});

function pushScanRows(
  { answers, citations, sets, pages, sources }: RunRows,
  { scanId, workspaceId, scan }: StoredScan,
  promptIds: ReadonlyMap<string, string>,
  setsSeen: Set<string>,
) {
  const runsPages: PageRead[][] = [];
  // A set's id; a set not queued yet in this ingestion becomes a row (written before its answers' group ends).
  const setIdOf = (members: string[]) => {
    const id = stringSetId(members);
    if (id && !setsSeen.has(`${scan.projectId}|${id}`)) {
      setsSeen.add(`${scan.projectId}|${id}`);
      pushRow(sets, [scan.projectId, id, workspaceId, orderedMembers(members)]);
    }
    return id;
  };
  for (const run of scan.runs!) {
    const answerId = newId('answer');
    const promptId = promptIds.get(`${scan.projectId}|${run.prompt}`)!;
    const cited = (run.citations ?? []).map((citation, index) => ({
      position: index + 1,
      url: citation.url,
      domain: registrableDomain(citation.url),
      title: citation.title ?? null,
    }));
    const read = retrievedPages(run);
    const pagesRead = pagesReadOf(read);
    runsPages.push(pagesRead);
    const querySet = setIdOf(distinctQueryKeys(run));
    const competitorSet = setIdOf(competitorsNamed(run));
    pushRow(answers, [
      answerId,
      workspaceId,
      scan.projectId,
      scanId,
      promptId,
      scan.date,
      scan.model,
      scan.locale,
      run.answer,
      run.brandMentions,
      run.totalMentions,
      run.position,
      run.sentiment,
      run.competitors ?? [],
      cited,
      run.searchQueries ?? [],
      read,
      querySet,
      competitorSet,
      pagesRead,
    ]);
    // Under its normalised URL, as pages read are: sources by URL join the two on it.
    for (const citation of cited) {
      pushRow(citations, [
        answerId,
        citation.position,
        workspaceId,
        scan.projectId,
        promptId,
        scan.date,
        scan.model,
        scan.locale,
        normaliseUrl(citation.url),
        citation.domain,
      ]);
    }
  }
  for (const [url, totals] of pageTotalsOf(runsPages)) {
    pushRow(pages, [
      scanId,
      url,
      workspaceId,
      scan.projectId,
      scan.date,
      scan.model,
      scan.locale,
      totals.domain,
      totals.retrievals,
      totals.retrievedNotCited,
    ]);
  }
  for (const [domain, totals] of sourceTotalsOf(scan.runs!)) {
    pushRow(sources, [
      scanId,
      domain,
      workspaceId,
      scan.projectId,
      scan.date,
      scan.model,
      scan.locale,
      totals.citations,
      totals.answersCiting,
      totals.retrievals,
      totals.retrievedNotCited,
      totals.brandAnswers,
      totals.gapCitations,
      totals.gapAnswers,
      [...totals.gapCompetitors].sort(),
    ]);
  }
}

async function insertRows(
  client: pg.PoolClient | pg.Client,
  { answers, citations, sets, pages, sources }: RunRows,
): Promise<void> {
  if (sets.id.length) {
    // In id order, so two ingestions adding the same sets wait on each other instead of deadlocking.
    await insertColumns(
      client,
      (rows) => `INSERT INTO ai_string_sets (project_id, id, workspace_id, members)
        SELECT project, id, workspace, ARRAY(SELECT jsonb_array_elements_text(members))
        FROM ${rows} AS u(project, id, workspace, members) ORDER BY project, id
        ON CONFLICT (project_id, id) DO NOTHING`,
      sets,
      { project: 'text', id: 'uuid', workspace: 'text', members: 'jsonb' },
    );
  }
  await insertColumns(
    client,
    (
      rows,
    ) => `INSERT INTO ai_answers (id, workspace_id, project_id, scan_id, prompt_id, date, model, locale, text, brand_mentions, total_mentions, position, sentiment, competitors, citations, search_queries, retrieved, query_set, competitor_set, pages_read)
      SELECT * FROM ${rows}`,
    answers,
    {
      id: 'text',
      workspace: 'text',
      project: 'text',
      scan: 'text',
      prompt: 'text',
      date: 'date',
      model: 'text',
      locale: 'text',
      text: 'text',
      brand: 'int',
      total: 'int',
      position: 'int',
      sentiment: 'text',
      competitors: 'jsonb',
      citations: 'jsonb',
      searches: 'jsonb',
      retrieved: 'jsonb',
      querySet: 'uuid',
      competitorSet: 'uuid',
      pagesRead: 'jsonb',
    },
  );
  const runColumns = {
    workspace: 'text',
    project: 'text',
    prompt: 'text',
    date: 'date',
    model: 'text',
    locale: 'text',
  };
  if (citations.answer.length) {
    await insertColumns(
      client,
      (rows) =>
        `INSERT INTO ai_citations (answer_id, position, workspace_id, project_id, prompt_id, date, model, locale, url, domain) SELECT * FROM ${rows}`,
      citations,
      { answer: 'text', position: 'int', ...runColumns, url: 'text', domain: 'text' },
    );
  }
  if (pages.scan.length) {
    await insertColumns(
      client,
      (rows) =>
        `INSERT INTO ai_page_totals (scan_id, url, workspace_id, project_id, date, model, locale, domain, retrievals, retrieved_not_cited) SELECT * FROM ${rows}`,
      pages,
      { scan: 'text', url: 'text', ...runColumns, domain: 'text', retrievals: 'int', notCited: 'int' },
    );
  }
  if (sources.scan.length) {
    await insertColumns(
      client,
      (
        rows,
      ) => `INSERT INTO ai_source_totals (scan_id, domain, workspace_id, project_id, date, model, locale, citations, answers_citing, retrievals, retrieved_not_cited, brand_answers, gap_citations, gap_answers, gap_competitors)
        SELECT scan, domain, workspace, project, date, model, locale, citations, answers, retrievals, not_cited, brand, gap_citations, gap_answers, ARRAY(SELECT jsonb_array_elements_text(gap_competitors))
        FROM ${rows} AS u(scan, domain, workspace, project, date, model, locale, citations, answers, retrievals, not_cited, brand, gap_citations, gap_answers, gap_competitors)`,
      sources,
      {
        scan: 'text',
        domain: 'text',
        workspace: 'text',
        project: 'text',
        date: 'date',
        model: 'text',
        locale: 'text',
        citations: 'int',
        answers: 'int',
        retrievals: 'int',
        notCited: 'int',
        brand: 'int',
        gapCitations: 'int',
        gapAnswers: 'int',
        gapCompetitors: 'jsonb',
      },
    );
  }
}

/**
 * Prompt ids by `project|text`; a text the project does not track yet becomes a prompt with its
 * first run's topic and tags. Prompts first seen together are created a millisecond apart, in
 * the order they were seen, so "oldest first" is the order of the file.
 */
async function ensurePrompts(
  client: pg.PoolClient | pg.Client,
  scans: readonly StoredScan[],
): Promise<Map<string, string>> {
  const wanted = new Map<
    string,
    { workspace: string; project: string; text: string; topic: string | null; tags: string[] }
  >();
  for (const { workspaceId, scan } of scans) {
    for (const run of scan.runs as Run[]) {
      const key = `${scan.projectId}|${run.prompt}`;
      if (!wanted.has(key))
        wanted.set(key, {
          workspace: workspaceId,
          project: scan.projectId,
          text: run.prompt,
          topic: run.topic ?? null,
          tags: [...new Set(run.tags ?? [])],
        });
    }
  }
  const entries = [...wanted.values()];
  const columns = columnsOf(['id', 'workspace', 'project', 'text', 'topic', 'tags'] as const);
  for (const entry of entries)
    pushRow(columns, [newId('prompt'), entry.workspace, entry.project, entry.text, entry.topic, entry.tags]);
  await insertColumns(
    client,
    (rows) => `INSERT INTO ai_prompts (id, workspace_id, project_id, text, topic, tags, created_at)
      SELECT id, workspace, project, text, topic, ARRAY(SELECT jsonb_array_elements_text(tags)), now() + n * interval '1 millisecond'
      FROM ${rows} WITH ORDINALITY AS u(id, workspace, project, text, topic, tags, n)
      ON CONFLICT (project_id, text) DO NOTHING`,
    columns,
    { id: 'text', workspace: 'text', project: 'text', text: 'text', topic: 'text', tags: 'jsonb' },
  );
  const ids = new Map<string, string>();
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const chunk = entries.slice(start, start + ROWS_PER_STATEMENT);
    const result = await client.query<{ id: string; project_id: string; text: string }>(
      'SELECT p.id, p.project_id, p.text FROM ai_prompts p JOIN unnest($1::text[], $2::text[]) AS w(project, text) ON p.project_id = w.project AND p.text = w.text',
      [chunk.map((entry) => entry.project), chunk.map((entry) => entry.text)],
    );
    for (const row of result.rows) ids.set(`${row.project_id}|${row.text}`, row.id);
  }
  return ids;
}

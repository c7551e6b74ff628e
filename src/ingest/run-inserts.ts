// A group of run rows (run-rows.ts) written in one go, a statement per table: sets first, then
// the answers, then what names an answer (citations) and the scan's totals.
import type pg from 'pg';
import { insertColumns } from './columns.js';
import type { RunRows } from './run-rows.js';

type Client = pg.PoolClient | pg.Client;

/** Columns every row of a run carries. */
const RUN_COLUMNS = {
  workspace: 'text',
  project: 'text',
  prompt: 'text',
  date: 'date',
  model: 'text',
  locale: 'text',
};

export async function insertRows(client: Client, rows: RunRows): Promise<void> {
  if (rows.sets.id.length) await insertSets(client, rows.sets);
  await insertAnswers(client, rows.answers);
  if (rows.citations.answer.length) await insertCitations(client, rows.citations);
  if (rows.pages.scan.length) await insertPageTotals(client, rows.pages);
  if (rows.sources.scan.length) await insertSourceTotals(client, rows.sources);
}

// In id order, so two ingestions adding the same sets wait on each other instead of deadlocking.
const insertSets = (client: Client, sets: RunRows['sets']) =>
  insertColumns(
    client,
    (rows) => `INSERT INTO ai_string_sets (project_id, id, workspace_id, members)
        SELECT project, id, workspace, ARRAY(SELECT jsonb_array_elements_text(members))
        FROM ${rows} AS u(project, id, workspace, members) ORDER BY project, id
        ON CONFLICT (project_id, id) DO NOTHING`,
    sets,
    { project: 'text', id: 'uuid', workspace: 'text', members: 'jsonb' },
  );

const insertAnswers = (client: Client, answers: RunRows['answers']) =>
  insertColumns(
    client,
    (rows) => `INSERT INTO ai_answers (id, workspace_id, project_id, scan_id, prompt_id, date, model, locale,
        text, brand_mentions, total_mentions, position, sentiment, competitors, citations, search_queries,
        retrieved, query_set, competitor_set, pages_read)
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

const insertCitations = (client: Client, citations: RunRows['citations']) =>
  insertColumns(
    client,
    (rows) =>
      `INSERT INTO ai_citations (answer_id, position, workspace_id, project_id, prompt_id, date, model, locale,
        url, domain) SELECT * FROM ${rows}`,
    citations,
    { answer: 'text', position: 'int', ...RUN_COLUMNS, url: 'text', domain: 'text' },
  );

const insertPageTotals = (client: Client, pages: RunRows['pages']) =>
  insertColumns(
    client,
    (rows) =>
      `INSERT INTO ai_page_totals (scan_id, url, workspace_id, project_id, date, model, locale, domain,
        retrievals, retrieved_not_cited) SELECT * FROM ${rows}`,
    pages,
    { scan: 'text', url: 'text', ...RUN_COLUMNS, domain: 'text', retrievals: 'int', notCited: 'int' },
  );

// The names the statement reads the rows under: the row columns' own (run-rows.ts), in snake case, in their order.
const aliasesOf = (columns: object) =>
  Object.keys(columns)
    .map((name) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`))
    .join(', ');

const insertSourceTotals = (client: Client, sources: RunRows['sources']) =>
  insertColumns(
    client,
    (rows) => `INSERT INTO ai_source_totals (scan_id, domain, workspace_id, project_id, date, model, locale,
        citations, answers_citing, retrievals, retrieved_not_cited, brand_answers, gap_citations, gap_answers,
        gap_competitors)
        SELECT scan, domain, workspace, project, date, model, locale, citations, answers, retrievals, not_cited,
          brand, gap_citations, gap_answers, ARRAY(SELECT jsonb_array_elements_text(gap_competitors))
        FROM ${rows} AS u(${aliasesOf(sources)})`,
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

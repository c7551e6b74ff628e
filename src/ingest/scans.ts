// AI-visibility scan results: one scan = project × model × locale × date with its counters, or
// with its runs (one per prompt asked), from which the counters are derived (scan-lines.ts
// validates them). Idempotent on that key; each new or changed scan writes a scan.completed
// event (and its signals' signal.created) to the outbox in the same transaction, so no event
// exists for data that was rolled back.
import type pg from 'pg';
import { COUNTER_COLUMNS, COUNTER_FIELDS, runsDigest } from '../ai-visibility/index.js';
import { newId } from '../db/ids.js';
import { writeRuns } from './runs.js';
import type { ProjectRules, ScanInput } from './scan-lines.js';
import { recordSignals } from '../signals/index.js';
import { appendEvents, type OutboxEvent } from '../webhooks/index.js';

export async function projectRules(pool: pg.Pool, ids: readonly string[]): Promise<Map<string, ProjectRules>> {
  const result = await pool.query<{
    id: string;
    workspace_id: string;
    models: string[];
    locales: string[];
    competitors: string[];
  }>(
    'SELECT id, workspace_id, models, locales, competitors FROM ai_projects ' +
      'WHERE id = ANY($1::text[]) AND archived_at IS NULL',
    [[...new Set(ids)]],
  );
  return new Map(
    result.rows.map((row) => [
      row.id,
      { workspaceId: row.workspace_id, models: row.models, locales: row.locales, competitors: row.competitors },
    ]),
  );
}

const BATCH_SIZE = 500;

// Everything a scan is: an identical re-send (runs in any order) matches on all of it and changes nothing.
const STORED_COLUMNS = [
  ...COUNTER_FIELDS.map((field) => COUNTER_COLUMNS[field]),
  'competitors',
  'answer_count',
  'citation_count',
  'runs_digest',
];

interface UpsertedScan {
  id: string;
  workspace_id: string;
  project_id: string;
  date: string;
  model: string;
  locale: string;
  inserted: boolean;
  answer_count: number;
  citation_count: number;
}

/**
 * Upserts scans. A scan identical to the stored one is left alone and counted as unchanged; a new
 * or changed scan runs the project's signal rules and, unless told otherwise (the demo seed),
 * writes scan.completed and signal.created to the outbox. Run inside a transaction.
 */
export async function writeScans(
  client: pg.PoolClient | pg.Client,
  scans: readonly ScanInput[],
  projects: ReadonlyMap<string, ProjectRules>,
  onProgress?: (done: number) => void,
  options: { recordEvents?: boolean } = {},
) {
  await lockProjects(client, scans);
  const stored: { id: string; inserted: boolean }[] = [];
  const events: OutboxEvent[] = [];
  for (let start = 0; start < scans.length; start += BATCH_SIZE) {
    const batch = scans.slice(start, start + BATCH_SIZE);
    const upserted = await upsertScans(client, batch, projects);
    // A changed scan's runs are replaced whole: the new ones, or none for a counters-only line.
    const byKey = new Map(batch.map((scan) => [scanKey(scan.projectId, scan), scan]));
    await writeRuns(
      client,
      upserted.map((row) => ({
        scanId: row.id,
        workspaceId: row.workspace_id,
        inserted: row.inserted,
        scan: byKey.get(scanKey(row.project_id, row))!,
      })),
    );
    for (const row of upserted) {
      stored.push({ id: row.id, inserted: row.inserted });
      events.push(scanCompleted(row));
    }
    onProgress?.(start + batch.length);
  }
  // After every batch is stored, so a scan's predecessor is found even when it came later in the file.
  events.push(
    ...(await recordSignals(
      client,
      stored.map((scan) => scan.id),
      stored.filter((scan) => !scan.inserted).map((scan) => scan.id),
    )),
  );
  if (options.recordEvents !== false) await appendEvents(client, events);
  await markProjectsChanged(client, events);
  const inserted = stored.filter((scan) => scan.inserted).length;
  return { inserted, replaced: stored.length - inserted, unchanged: scans.length - stored.length };
}

const scanKey = (projectId: string, scan: { date: string; model: string; locale: string }) =>
  `${projectId}|${scan.date}|${scan.model}|${scan.locale}`;

// Two ingestions of one project take its scans' rows (and prompts, sets) in their files' orders
// and could deadlock, which PostgreSQL ends by failing one (a 500): each first locks its
// projects in id order, as its closing data_version UPDATE would, and they follow each other.
async function lockProjects(client: pg.PoolClient | pg.Client, scans: readonly ScanInput[]) {
  await client.query('SELECT 1 FROM ai_projects WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE', [
    [...new Set(scans.map((scan) => scan.projectId))],
  ]);
}

/** Inserts or updates a batch of scans; returns the rows that were new or changed. */
async function upsertScans(
  client: pg.PoolClient | pg.Client,
  batch: readonly ScanInput[],
  projects: ReadonlyMap<string, ProjectRules>,
): Promise<UpsertedScan[]> {
  const values: unknown[] = [];
  const rows = batch.map((scan) => {
    const citationCount = scan.runs?.reduce((sum, run) => sum + (run.citations?.length ?? 0), 0) ?? 0;
    const row = [
      newId('scan'),
      projects.get(scan.projectId)!.workspaceId,
      scan.projectId,
      scan.date,
      scan.model,
      scan.locale,
      ...COUNTER_FIELDS.map((field) => scan[field]),
      JSON.stringify(scan.competitors ?? []),
      scan.runs?.length ?? 0,
      citationCount,
      scan.runs ? runsDigest(scan.runs) : null,
    ];
    const placeholders = row.map((value) => `$${values.push(value)}`);
    placeholders[3] += '::date';
    placeholders[6 + COUNTER_FIELDS.length] += '::jsonb';
    placeholders[placeholders.length - 1] += '::text';
    return `(${placeholders.join(', ')}, now())`;
  });
  const columns = STORED_COLUMNS.join(', ');
  const updates = STORED_COLUMNS.map((column) => `${column} = EXCLUDED.${column}`).join(', ');
  const old = STORED_COLUMNS.map((column) => `s.${column}`).join(', ');
  const sent = STORED_COLUMNS.map((column) => `EXCLUDED.${column}`).join(', ');
  // The WHERE makes an identical re-ingest a no-op: the row is not returned, so nothing fires.
  const result = await client.query<UpsertedScan>(
    `INSERT INTO scans AS s (id, workspace_id, project_id, date, model, locale, ${columns}, completed_at)
       VALUES ${rows.join(', ')}
       ON CONFLICT (project_id, date, model, locale)
       DO UPDATE SET ${updates}, completed_at = now()
       WHERE (${old}) IS DISTINCT FROM (${sent})
       RETURNING id, workspace_id, project_id, to_char(date, 'YYYY-MM-DD') AS date, model, locale,
         (xmax = 0) AS inserted, answer_count, citation_count`,
    values,
  );
  return result.rows;
}

const scanCompleted = (row: UpsertedScan): OutboxEvent => ({
  workspaceId: row.workspace_id,
  type: 'scan.completed',
  data: {
    scanId: row.id,
    projectId: row.project_id,
    date: row.date,
    model: row.model,
    locale: row.locale,
    runCount: row.answer_count,
    citationCount: row.citation_count,
  },
});

// In the same transaction: cached metrics of these projects are stale from the commit on.
async function markProjectsChanged(client: pg.PoolClient | pg.Client, events: readonly OutboxEvent[]) {
  const changedProjects = [
    ...new Set(
      events.filter((event) => event.type === 'scan.completed').map((event) => event.data.projectId as string),
    ),
  ];
  if (changedProjects.length)
    await client.query('UPDATE ai_projects SET data_version = data_version + 1 WHERE id = ANY($1::text[])', [
      changedProjects,
    ]);
}

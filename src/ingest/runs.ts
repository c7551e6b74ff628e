// A scan's runs as rows: prompts (created on first sight, prompts.ts), answers (with the ids of
// their query set and named-competitor set, and their distinct pages read), their citations, the
// sets not stored yet, and the per-scan totals per domain and per page that sources and
// opportunities read (run-rows.ts). Written in the ingest transaction, column-wise (columns.ts,
// run-inserts.ts) so thousands of runs cost a handful of statements.
import type pg from 'pg';
import { ROWS_PER_STATEMENT } from './columns.js';
import { ensurePrompts } from './prompts.js';
import { insertRows } from './run-inserts.js';
import { emptyRows, pushScanRows, type StoredScan } from './run-rows.js';

export type { StoredScan };

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

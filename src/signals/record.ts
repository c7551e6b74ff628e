// Runs the signal rules over freshly stored scans inside the ingest transaction: each scan is
// compared with the previous scan (by date) of its project, model and locale; what fires is
// stored as a signal and written to the outbox as signal.created.
import type pg from 'pg';
import { newId } from '../db/ids.js';
import type { OutboxEvent } from '../webhooks/index.js';
import { effectiveRules, isSignalKind, type SignalRule } from './rules.js';
import { evaluateRules } from './evaluate-rules.js';
import { scanPairOf, SCAN_PAIRS_OF } from './scan-pairs.js';
import { runStatement } from '../db/sql-runner.js';

const CHUNK = 500;

export async function loadRules(
  client: pg.PoolClient | pg.Client,
  projectIds: readonly string[],
): Promise<Map<string, SignalRule[]>> {
  const result = await client.query<{ project_id: string; kind: string; threshold: number; enabled: boolean }>(
    'SELECT project_id, kind, threshold, enabled FROM signal_rules WHERE project_id = ANY($1::text[])',
    [projectIds],
  );
  const stored = new Map<string, SignalRule[]>();
  for (const row of result.rows) {
    if (!isSignalKind(row.kind)) continue;
    stored.set(row.project_id, [
      ...(stored.get(row.project_id) ?? []),
      { kind: row.kind, threshold: row.threshold, enabled: row.enabled },
    ]);
  }
  return new Map(projectIds.map((id) => [id, effectiveRules(stored.get(id) ?? [])]));
}

/**
 * Evaluates the rules for the given scans (ids of rows this transaction inserted or changed) and
 * returns the signal.created events to write. A changed scan's earlier signals are replaced.
 */
export async function recordSignals(
  client: pg.PoolClient | pg.Client,
  scanIds: readonly string[],
  replacedScanIds: readonly string[],
): Promise<OutboxEvent[]> {
  if (replacedScanIds.length)
    await client.query('DELETE FROM signals WHERE scan_id = ANY($1::text[])', [replacedScanIds]);
  const events: OutboxEvent[] = [];
  for (let start = 0; start < scanIds.length; start += CHUNK) {
    const ids = scanIds.slice(start, start + CHUNK);
    const pairs = await runStatement(client, SCAN_PAIRS_OF, { scanIds: ids });
    if (!pairs.rows.length) continue;
    const rules = await loadRules(client, [...new Set(pairs.rows.map((row) => row.project_id as string))]);
    const values: unknown[] = [];
    const rows: string[] = [];
    for (const row of pairs.rows) {
      const { previous, current } = scanPairOf(row);
      const fired = evaluateRules(previous, current, rules.get(row.project_id as string)!);
      for (const signal of fired) {
        const id = newId('signal');
        const placeholders = [
          id,
          row.workspace_id,
          row.project_id,
          row.id,
          signal.kind,
          row.model,
          row.locale,
          JSON.stringify(signal.details),
        ].map((value) => `$${values.push(value)}`);
        rows.push(`(${placeholders.join(', ')}::jsonb)`);
        events.push({
          workspaceId: row.workspace_id as string,
          type: 'signal.created',
          data: {
            signalId: id,
            kind: signal.kind,
            projectId: row.project_id,
            scanId: row.id,
            date: row.date,
            model: row.model,
            locale: row.locale,
            ...signal.details,
          },
        });
      }
    }
    if (rows.length)
      await client.query(
        'INSERT INTO signals (id, workspace_id, project_id, scan_id, kind, model, locale, details) ' +
          `VALUES ${rows.join(', ')}`,
        values,
      );
  }
  return events;
}

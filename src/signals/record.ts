// Runs the signal rules over freshly stored scans inside the ingest transaction: each scan is
// compared with the previous scan (by date) of its project, model and locale; what fires is
// stored as a signal and written to the outbox as signal.created.
import { newId } from '../db/ids.js';
import type { OutboxEvent } from '../webhooks/index.js';
import { effectiveRules, isSignalKind, type SignalRule } from './rules.js';
import { evaluateRules } from './evaluate-rules.js';
import { scanPairOf, SCAN_PAIRS_OF } from './scan-pairs.js';
import { runStatement, sqlStatement, type SqlRunner } from '../db/sql-runner.js';

const CHUNK = 500;

const RULES_OF = sqlStatement<
  { project_id: string; kind: string; threshold: number; enabled: boolean },
  { projectIds: readonly string[] }
>(
  'signals.rules-of-projects',
  (param) => `SELECT project_id, kind, threshold, enabled FROM signal_rules
    WHERE project_id = ANY(${param('projectIds')}::text[])`,
);

const DELETE_SIGNALS_OF = sqlStatement<never, { scanIds: readonly string[] }>(
  'signals.delete-of-scans',
  (param) => `DELETE FROM signals WHERE scan_id = ANY(${param('scanIds')}::text[])`,
);

/** The signals to store, one array per column. */
interface NewSignals {
  ids: string[];
  workspaceIds: string[];
  projectIds: string[];
  scanIds: string[];
  kinds: string[];
  models: string[];
  locales: string[];
  details: string[];
}

const INSERT_SIGNALS = sqlStatement<never, NewSignals>(
  'signals.insert',
  (param) => `INSERT INTO signals (id, workspace_id, project_id, scan_id, kind, model, locale, details)
    SELECT id, workspace_id, project_id, scan_id, kind, model, locale, details::jsonb
    FROM unnest(${param('ids')}::text[], ${param('workspaceIds')}::text[], ${param('projectIds')}::text[],
                ${param('scanIds')}::text[], ${param('kinds')}::text[], ${param('models')}::text[],
                ${param('locales')}::text[], ${param('details')}::text[])
      AS s(id, workspace_id, project_id, scan_id, kind, model, locale, details)`,
);

const noSignals = (): NewSignals => ({
  ids: [],
  workspaceIds: [],
  projectIds: [],
  scanIds: [],
  kinds: [],
  models: [],
  locales: [],
  details: [],
});

export async function loadRules(client: SqlRunner, projectIds: readonly string[]): Promise<Map<string, SignalRule[]>> {
  const result = await runStatement(client, RULES_OF, { projectIds });
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
  client: SqlRunner,
  scanIds: readonly string[],
  replacedScanIds: readonly string[],
): Promise<OutboxEvent[]> {
  if (replacedScanIds.length) await runStatement(client, DELETE_SIGNALS_OF, { scanIds: replacedScanIds });
  const events: OutboxEvent[] = [];
  for (let start = 0; start < scanIds.length; start += CHUNK) {
    const ids = scanIds.slice(start, start + CHUNK);
    const pairs = await runStatement(client, SCAN_PAIRS_OF, { scanIds: ids });
    if (!pairs.rows.length) continue;
    const rules = await loadRules(client, [...new Set(pairs.rows.map((row) => row.project_id as string))]);
    const signals = noSignals();
    for (const row of pairs.rows) {
      const { previous, current } = scanPairOf(row);
      const fired = evaluateRules(previous, current, rules.get(row.project_id as string)!);
      for (const signal of fired) {
        const id = newId('signal');
        signals.ids.push(id);
        signals.workspaceIds.push(row.workspace_id as string);
        signals.projectIds.push(row.project_id as string);
        signals.scanIds.push(row.id as string);
        signals.kinds.push(signal.kind);
        signals.models.push(row.model as string);
        signals.locales.push(row.locale as string);
        signals.details.push(JSON.stringify(signal.details));
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
    if (signals.ids.length) await runStatement(client, INSERT_SIGNALS, signals);
  }
  return events;
}

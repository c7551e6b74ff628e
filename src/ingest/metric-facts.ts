// Provider metric facts: validated against the catalog, written idempotently (a re-sent
// fact replaces the stored one) column-wise (columns.ts) inside one transaction.
import type pg from 'pg';
import { z } from 'zod';
import {
  baseMetricsOf,
  catalog,
  METRIC_COLUMNS,
  METRIC_VALUE_MAX,
  PROVIDERS,
  type ProviderId,
} from '../reports/index.js';
import { DATE_RULE, isCivilDate } from '../dates/civil-date.js';
import { checkedRecord, validateLines, type BodyState, type LineProblem, type ParsedLine } from './lines.js';
import { columnsOf, insertColumns, pushRow } from './columns.js';

export interface MetricFactInput {
  clientId: string;
  provider: ProviderId;
  date: string;
  dimension: string;
  dimensionValue: string;
  metrics: Record<string, number>;
}

const lineSchema = z
  .object({
    client: z.string().regex(/^cli_[0-9A-Za-z]{20}$/, 'client must be a client id (cli_…)'),
    provider: z.enum(PROVIDERS),
    date: z.string().refine(isCivilDate, `must be ${DATE_RULE}`),
    dimension: checkedRecord(z.string().min(1).max(500), 1, 'dimension must have exactly one key')
      .refine((value) => Object.keys(value).length === 1, 'dimension must have exactly one key')
      .optional(),
    // More keys than there are base metrics at all is refused before the values are checked.
    metrics: checkedRecord(
      z
        .number()
        .finite()
        .min(0, 'a metric is at least 0')
        .max(METRIC_VALUE_MAX, 'a metric is at most 1e12 (a trillion)'),
      METRIC_COLUMNS.length,
    ),
  })
  .strict();

export function validateMetricLines(
  lines: readonly ParsedLine[],
  knownClients: { has(id: string): boolean },
  body?: BodyState,
): { facts: MetricFactInput[]; problems: LineProblem[] } {
  const { accepted, problems } = validateLines(
    lines,
    lineSchema,
    'fact',
    ({ client, provider, date, dimension, metrics }) => {
      const [dimensionName, dimensionValue] = dimension ? Object.entries(dimension)[0]! : ['', ''];
      const lineProblems: string[] = [];
      if (!knownClients.has(client)) lineProblems.push(`unknown client ${client}`);
      if (dimensionName && !catalog[provider].dimensions.includes(dimensionName)) {
        lineProblems.push(
          `${provider} has no dimension "${dimensionName}" (allowed: ${catalog[provider].dimensions.join(', ')})`,
        );
      }
      const allowed = baseMetricsOf(provider);
      const unknown = Object.keys(metrics).filter((name) => !allowed.includes(name));
      if (unknown.length)
        lineProblems.push(`${provider} has no base metric ${unknown.join(', ')} (allowed: ${allowed.join(', ')})`);
      if (Object.keys(metrics).length === 0) lineProblems.push('metrics is empty');
      return {
        key: `${client}|${provider}|${date}|${dimensionName}|${dimensionValue}`,
        problems: lineProblems,
        record: { clientId: client, provider, date, dimension: dimensionName, dimensionValue, metrics },
      };
    },
    body,
  );
  return { facts: accepted, problems };
}

/**
 * Upserts facts; a fact identical to the stored one is left alone and counted as unchanged. The
 * clients whose facts changed get a new data version (their cached report data is stale); an
 * identical re-send leaves every version, and so every report's ETag, as it was.
 */
export async function writeMetricFacts(
  client: pg.PoolClient | pg.Client,
  facts: readonly MetricFactInput[],
  onProgress?: (done: number) => void,
) {
  const columns = columnsOf(['client', 'provider', 'date', 'dimension', 'value', ...METRIC_COLUMNS]);
  for (const fact of facts)
    pushRow(columns, [
      fact.clientId,
      fact.provider,
      fact.date,
      fact.dimension,
      fact.dimensionValue,
      ...METRIC_COLUMNS.map((name) => fact.metrics[name] ?? null),
    ]);
  const stored = METRIC_COLUMNS.map((name) => `metric_facts.${name}`).join(', ');
  const sent = METRIC_COLUMNS.map((name) => `EXCLUDED.${name}`).join(', ');
  const rows = await insertColumns<{ inserted: boolean; clientId: string }>(
    client,
    (
      rows,
    ) => `INSERT INTO metric_facts (client_id, provider, date, dimension, dimension_value, ${METRIC_COLUMNS.join(', ')})
      SELECT * FROM ${rows}
      ON CONFLICT (client_id, provider, dimension, date, dimension_value)
      DO UPDATE SET ${METRIC_COLUMNS.map((name) => `${name} = EXCLUDED.${name}`).join(', ')}
        WHERE (${stored}) IS DISTINCT FROM (${sent})
      RETURNING (xmax = 0) AS inserted, client_id AS "clientId"`,
    columns,
    {
      client: 'text',
      provider: '"Provider"',
      date: 'date',
      dimension: 'text',
      value: 'text',
      ...Object.fromEntries(METRIC_COLUMNS.map((name) => [name, 'float8'])),
    },
    onProgress,
  );
  const inserted = rows.filter((row) => row.inserted).length;
  const changedClients = [...new Set(rows.map((row) => row.clientId))];
  // In the same transaction: cached report data of these clients is stale from the commit on.
  if (changedClients.length)
    await client.query('UPDATE clients SET data_version = data_version + 1 WHERE id = ANY($1::text[])', [
      changedClients,
    ]);
  return { inserted, replaced: rows.length - inserted, unchanged: facts.length - rows.length };
}

/** The clients of `ids` that exist, with their workspaces. */
export async function existingClients(pool: pg.Pool, ids: readonly string[]): Promise<Map<string, string>> {
  const result = await pool.query<{ id: string; workspace_id: string }>(
    'SELECT id, workspace_id FROM clients WHERE id = ANY($1::text[])',
    [[...new Set(ids)]],
  );
  return new Map(result.rows.map((row) => [row.id, row.workspace_id]));
}

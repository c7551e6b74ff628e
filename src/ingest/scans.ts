// AI-visibility scan results: one scan = project × model × locale × date with its counters.
// Idempotent on that key; each new or changed scan writes a scan.completed event (and its
// signals' signal.created) to the outbox in the same transaction, so no event exists for data
// that was rolled back.
import type pg from 'pg';
import { z } from 'zod';
import { isCivilDate } from '../dates/civil-date.js';
import { AI_MODELS } from '../ai-visibility/index.js';
import { COMPETITOR_COUNTER_FIELDS, COUNTER_FIELDS, type CompetitorCounters, type ScanCounters } from '../ai-visibility/index.js';
import { newId } from '../db/ids.js';
import { COUNTER_COLUMNS } from '../ai-visibility/index.js';
import { describeIssues, type LineProblem, type ParsedLine } from './lines.js';
import { recordSignals } from '../signals/index.js';
import { appendEvents, type OutboxEvent } from '../webhooks/index.js';

export interface ScanInput extends ScanCounters {
  projectId: string;
  date: string;
  model: string;
  locale: string;
  competitors?: CompetitorCounters[];
}

export interface ProjectRules {
  workspaceId: string;
  models: readonly string[];
  locales: readonly string[];
  competitors: readonly string[];
}

const counter = z.number().int('must be an integer').nonnegative('must not be negative').max(2_000_000_000);

const lineSchema = z
  .object({
    project: z.string().regex(/^prj_[0-9A-Za-z]{20}$/, 'project must be a project id (prj_…)'),
    date: z.string().refine(isCivilDate, 'date must be YYYY-MM-DD and exist'),
    model: z.enum(AI_MODELS),
    locale: z.string().min(2).max(35),
    ...Object.fromEntries(COUNTER_FIELDS.map((field) => [field, counter])),
    competitors: z
      .array(z.object({ name: z.string().min(1).max(200), ...Object.fromEntries(COMPETITOR_COUNTER_FIELDS.map((field) => [field, counter])) }).strict())
      .max(50)
      .optional(),
  })
  .strict();

/** The same bounds for each competitor as for the brand, against the scan's runs and mentions. */
export function competitorProblems(scan: ScanCounters, competitors: readonly CompetitorCounters[], tracked: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const competitor of competitors) {
    const label = `competitor ${competitor.name}`;
    if (!tracked.includes(competitor.name)) problems.push(`${label} is not tracked by the project (tracked: ${tracked.join(', ') || 'none'})`);
    if (seen.has(competitor.name)) problems.push(`${label} is given twice`);
    seen.add(competitor.name);
    if (competitor.visibilityCount > scan.totalRuns) problems.push(`${label}: visibilityCount must be ≤ totalRuns`);
    if (competitor.mentionCount > scan.totalMentionCount) problems.push(`${label}: mentionCount must be ≤ totalMentionCount`);
    if (competitor.positionedCount > competitor.visibilityCount) problems.push(`${label}: positionedCount must be ≤ visibilityCount`);
    if (competitor.positionedCount > 0 && competitor.positionSum < competitor.positionedCount) problems.push(`${label}: positionSum must be ≥ positionedCount (positions start at 1)`);
  }
  const mentions = scan.mentionCount + competitors.reduce((sum, competitor) => sum + competitor.mentionCount, 0);
  if (competitors.length && mentions > scan.totalMentionCount) problems.push('mentionCount of the brand and its competitors together must be ≤ totalMentionCount');
  return problems;
}

/** The cross-field rules of the contract's counters. */
export function counterProblems(scan: ScanCounters): string[] {
  const problems: string[] = [];
  if (scan.visibilityCount > scan.totalRuns) problems.push('visibilityCount must be ≤ totalRuns');
  if (scan.mentionCount > scan.totalMentionCount) problems.push('mentionCount must be ≤ totalMentionCount');
  if (scan.positionedCount > scan.visibilityCount) problems.push('positionedCount must be ≤ visibilityCount');
  if (scan.positiveCount + scan.neutralCount + scan.negativeCount > scan.mentionCount) {
    problems.push('positiveCount + neutralCount + negativeCount must be ≤ mentionCount');
  }
  if (scan.positionedCount > 0 && scan.positionSum < scan.positionedCount) problems.push('positionSum must be ≥ positionedCount (positions start at 1)');
  return problems;
}

export function validateScanLines(lines: readonly ParsedLine[], projects: ReadonlyMap<string, ProjectRules>): { scans: ScanInput[]; problems: LineProblem[] } {
  const scans: ScanInput[] = [];
  const problems: LineProblem[] = [];
  const seen = new Map<string, number>();
  for (const { line, value } of lines) {
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) {
      problems.push({ line, message: describeIssues(parsed.error) });
      continue;
    }
    const { project, date, model, locale, competitors = [], ...rest } = parsed.data as unknown as { project: string; date: string; model: string; locale: string; competitors?: CompetitorCounters[] } & ScanCounters;
    const lineProblems = counterProblems(rest);
    const rules = projects.get(project);
    if (!rules) lineProblems.push(`unknown project ${project}`);
    else {
      if (!rules.models.includes(model)) lineProblems.push(`model ${model} is not tracked by the project (tracked: ${rules.models.join(', ')})`);
      if (!rules.locales.includes(locale)) lineProblems.push(`locale ${locale} is not tracked by the project (tracked: ${rules.locales.join(', ')})`);
      lineProblems.push(...competitorProblems(rest, competitors, rules.competitors));
    }
    const key = `${project}|${date}|${model}|${locale}`;
    if (seen.has(key)) lineProblems.push(`same scan as line ${seen.get(key)}`);
    seen.set(key, line);
    if (lineProblems.length) problems.push({ line, message: lineProblems.join('; ') });
    else scans.push({ projectId: project, date, model, locale, ...rest, competitors });
  }
  return { scans, problems };
}

export async function projectRules(pool: pg.Pool, ids: readonly string[]): Promise<Map<string, ProjectRules>> {
  const result = await pool.query<{ id: string; workspace_id: string; models: string[]; locales: string[]; competitors: string[] }>(
    'SELECT id, workspace_id, models, locales, competitors FROM ai_projects WHERE id = ANY($1::text[])',
    [[...new Set(ids)]],
  );
  return new Map(result.rows.map((row) => [row.id, { workspaceId: row.workspace_id, models: row.models, locales: row.locales, competitors: row.competitors }]));
}

const BATCH_SIZE = 500;

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
  const counterColumns = [...COUNTER_FIELDS.map((field) => COUNTER_COLUMNS[field]), 'competitors'];
  const stored: { id: string; inserted: boolean }[] = [];
  const events: OutboxEvent[] = [];
  for (let start = 0; start < scans.length; start += BATCH_SIZE) {
    const batch = scans.slice(start, start + BATCH_SIZE);
    const values: unknown[] = [];
    const rows = batch.map((scan) => {
      const row = [newId('scan'), projects.get(scan.projectId)!.workspaceId, scan.projectId, scan.date, scan.model, scan.locale, ...COUNTER_FIELDS.map((field) => scan[field]), JSON.stringify(scan.competitors ?? [])];
      const placeholders = row.map((value) => `$${values.push(value)}`);
      placeholders[3] += '::date';
      placeholders[placeholders.length - 1] += '::jsonb';
      return `(${placeholders.join(', ')}, now())`;
    });
    // The WHERE makes an identical re-ingest a no-op: the row is not returned, so nothing fires.
    const result = await client.query<{ id: string; workspace_id: string; project_id: string; date: string; model: string; locale: string; inserted: boolean }>(
      `INSERT INTO scans AS s (id, workspace_id, project_id, date, model, locale, ${counterColumns.join(', ')}, completed_at)
       VALUES ${rows.join(', ')}
       ON CONFLICT (project_id, date, model, locale)
       DO UPDATE SET ${counterColumns.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}, completed_at = now()
       WHERE (${counterColumns.map((column) => `s.${column}`).join(', ')}) IS DISTINCT FROM (${counterColumns.map((column) => `EXCLUDED.${column}`).join(', ')})
       RETURNING id, workspace_id, project_id, to_char(date, 'YYYY-MM-DD') AS date, model, locale, (xmax = 0) AS inserted`,
      values,
    );
    for (const row of result.rows) {
      stored.push({ id: row.id, inserted: row.inserted });
      events.push({ workspaceId: row.workspace_id, type: 'scan.completed', data: { scanId: row.id, projectId: row.project_id, date: row.date, model: row.model, locale: row.locale } });
    }
    onProgress?.(start + batch.length);
  }
  // After every batch is stored, so a scan's predecessor is found even when it came later in the file.
  events.push(...(await recordSignals(client, stored.map((scan) => scan.id), stored.filter((scan) => !scan.inserted).map((scan) => scan.id))));
  if (options.recordEvents !== false) await appendEvents(client, events);
  // In the same transaction: cached metrics of these projects are stale from the commit on.
  const changedProjects = [...new Set(events.filter((event) => event.type === 'scan.completed').map((event) => event.data.projectId as string))];
  if (changedProjects.length) await client.query('UPDATE ai_projects SET data_version = data_version + 1 WHERE id = ANY($1::text[])', [changedProjects]);
  const inserted = stored.filter((scan) => scan.inserted).length;
  return { inserted, replaced: stored.length - inserted, unchanged: scans.length - stored.length };
}

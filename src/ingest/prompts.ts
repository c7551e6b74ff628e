// The prompts a scan's runs were asked: found by their text, created on first sight.
import type pg from 'pg';
import type { Run } from '../ai-visibility/index.js';
import { newId } from '../db/ids.js';
import { columnsOf, insertColumns, pushRow, ROWS_PER_STATEMENT } from './columns.js';
import type { StoredScan } from './run-rows.js';

/**
 * Prompt ids by `project|text`; a text the project does not track yet becomes a prompt with its
 * first run's topic and tags. Prompts first seen together are created a millisecond apart, in
 * the order they were seen, so "oldest first" is the order of the file.
 */
export async function ensurePrompts(
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
      SELECT id, workspace, project, text, topic, ARRAY(SELECT jsonb_array_elements_text(tags)),
        now() + n * interval '1 millisecond'
      FROM ${rows} WITH ORDINALITY AS u(id, workspace, project, text, topic, tags, n)
      ON CONFLICT (project_id, text) DO NOTHING`,
    columns,
    { id: 'text', workspace: 'text', project: 'text', text: 'text', topic: 'text', tags: 'jsonb' },
  );
  const ids = new Map<string, string>();
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const chunk = entries.slice(start, start + ROWS_PER_STATEMENT);
    const result = await client.query<{ id: string; project_id: string; text: string }>(
      'SELECT p.id, p.project_id, p.text FROM ai_prompts p ' +
        'JOIN unnest($1::text[], $2::text[]) AS w(project, text) ON p.project_id = w.project AND p.text = w.text',
      [chunk.map((entry) => entry.project), chunk.map((entry) => entry.text)],
    );
    for (const row of result.rows) ids.set(`${row.project_id}|${row.text}`, row.id);
  }
  return ids;
}

// Finding things by name across a workspace: clients, reports, AI-visibility projects and
// tracked prompts whose name (or text) contains the words asked for, case-insensitively.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import { tenantStatement } from '../db/tenant-sql.js';

export const SEARCH_KINDS = ['client', 'report', 'project', 'prompt'] as const;

export interface SearchHit {
  kind: (typeof SEARCH_KINDS)[number];
  id: string;
  name: string;
  /** The client of a report or project, the project of a prompt. */
  parentId: string | null;
}

const SEARCH = tenantStatement<SearchHit, { pattern: string; perKind: number }>(
  'workspace.search',
  (workspace, param) => {
    const matching = (column: string) =>
      `${column} ILIKE ${param('pattern')} ORDER BY ${column}, id LIMIT ${param('perKind')}`;
    return `(SELECT 'client' AS kind, id, name, NULL::text AS "parentId" FROM clients
      WHERE ${workspace()} AND archived_at IS NULL AND ${matching('name')})
    UNION ALL (SELECT 'report', id, name, client_id FROM reports
      WHERE ${workspace()} AND archived_at IS NULL AND ${matching('name')})
    UNION ALL (SELECT 'project', id, name, client_id FROM ai_projects
      WHERE ${workspace()} AND archived_at IS NULL AND ${matching('name')})
    UNION ALL (SELECT 'prompt', id, text, project_id FROM ai_prompts
      WHERE ${workspace()} AND archived_at IS NULL AND ${matching('text')})`;
  },
);

/** `query` is matched literally (its % and _ are not wildcards). */
export const searchWorkspace = (scope: WorkspaceScope, query: string, perKind: number) =>
  scope.rows(SEARCH, { pattern: `%${query.replace(/[\\%_]/g, (char) => `\\${char}`)}%`, perKind });

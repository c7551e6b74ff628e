// Relations of many parents in one statement: the child rows come back tagged with their
// parent id (and, for capped lists, the parent's total before the cap); these helpers give
// each parent its share, in the order the DataLoader asked.

import { firstPageOf, type ListEnvelope } from './paging.js';

export type { ListEnvelope, ListMetaShape } from './paging.js';

/**
 * One statement for many parents: `inner` is the query for one parent, naming its id `p.id`
 * (typically with its own ORDER BY … LIMIT); `parentIds` is the placeholder of the array of parent
 * ids (`param('parentIds')`). Each row comes back tagged with its `parentId`.
 */
export const perParent = (parentIds: string, inner: string) =>
  `SELECT p.id AS "parentId", x.* FROM unnest(${parentIds}::text[]) AS p(id) CROSS JOIN LATERAL (${inner}) x`;

export interface ParentTagged {
  parentId: string;
}

export function groupByParent<T extends ParentTagged>(parentIds: readonly string[], rows: readonly T[]): T[][] {
  // One parent (a single read): compared, not hashed — each row's parentId is a fresh string, and
  // hashing each into a Map showed in large metrics responses (docs/decisions/data-access.md).
  if (parentIds.length === 1) return [rows.filter((row) => row.parentId === parentIds[0])];
  const byParent = new Map<string, T[]>(parentIds.map((id) => [id, []]));
  for (const row of rows) byParent.get(row.parentId)?.push(row);
  return parentIds.map((id) => byParent.get(id)!);
}

/** Rows of a capped relation carry `total`, the parent's count before the cap (a window count). */
export function cappedByParent<T extends ParentTagged & { total: number }>(
  parentIds: readonly string[],
  rows: readonly T[],
): ListEnvelope<T>[] {
  return groupByParent(parentIds, rows).map((data) => firstPageOf(data, data[0]?.total ?? 0));
}

/** Rows found by id, in the order the ids were asked; null where none was found. */
export function inAskedOrder<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): (T | null)[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

// The v1 envelope lives in the schema itself: a list field returns { data, meta } with
// meta.total / meta.truncated, so REST (SOFA returns the bare field value), GraphQL and
// MCP all see the same shape, and OpenAPI documents it from the executing schema.
//
// Every list is one page internally (db/paging.ts `Page`: its rows and whether more follow), and
// `truncated` has one meaning in every shape: rows follow the last one this answer holds. A
// capped list is always a first page, so its rows past the cap are what follows; a keyset page's
// are the next pages'; a connection says the same as pageInfo.hasNextPage.
import type { ObjectRef } from '@pothos/core';
import { builder } from './builder.js';
import type { GraphQLContext } from './context.js';
import { COUNTED_BY_PARENT } from './cost.js';
import { firstPageOf, type ListEnvelope, type ListMetaShape, type Page } from '../db/paging.js';

export type { ListEnvelope, ListMetaShape };
export { firstPageOf };

type GraphQLTypes = typeof builder.$inferSchemaTypes;

export const ListMeta = builder.objectRef<ListMetaShape>('ListMeta').implement({
  description: 'How complete a capped collection is.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Rows that match, before the cap.' }),
    truncated: t.exposeBoolean('truncated', { description: 'True when only the most recent rows are returned.' }),
  }),
});

export function listEnvelope<T>(name: string, item: ObjectRef<GraphQLTypes, T, unknown>, description: string) {
  return builder.objectRef<ListEnvelope<T>>(name).implement({
    description,
    fields: (t) => ({
      // Every such list is cut at the instance's row cap (cappedList below).
      data: t.expose('data', {
        type: [item],
        complexity: (_args: unknown, ctx: GraphQLContext) => ({ field: 1, multiplier: ctx.config.LIST_ROW_CAP }),
      }),
      meta: t.expose('meta', { type: ListMeta }),
    }),
  });
}

export interface KeysetPage<T> {
  data: T[];
  meta: { total: number; truncated: boolean; nextCursor: string | null };
}

/**
 * A keyset page of `plural` (answers, prompts): `{ data, meta: { total, truncated, nextCursor } }`,
 * its items counted where the page's size was asked. `name` names the page and, with Meta, its meta.
 */
export function keysetPage<T>(
  name: string,
  item: ObjectRef<GraphQLTypes, T, unknown>,
  plural: string,
  description: string,
) {
  const meta = builder.objectRef<KeysetPage<T>['meta']>(`${name}Meta`).implement({
    fields: (t) => ({
      total: t.exposeInt('total', {
        description: `${plural[0]!.toUpperCase()}${plural.slice(1)} that match, over every page.`,
      }),
      truncated: t.exposeBoolean('truncated', { description: `True when more ${plural} follow this page.` }),
      nextCursor: t.exposeString('nextCursor', {
        nullable: true,
        description: 'Pass as cursor for the next page; null on the last page.',
      }),
    }),
  });
  return builder.objectRef<KeysetPage<T>>(name).implement({
    description,
    fields: (t) => ({
      data: t.expose('data', { type: [item], complexity: COUNTED_BY_PARENT }),
      meta: t.expose('meta', { type: meta }),
    }),
  });
}

export interface ItemEnvelope<T> {
  data: T;
  meta: Record<string, unknown>;
}

export function itemEnvelope<T>(name: string, item: ObjectRef<GraphQLTypes, T, unknown>, description: string) {
  return builder.objectRef<ItemEnvelope<T>>(name).implement({
    description,
    fields: (t) => ({
      data: t.expose('data', { type: item }),
      meta: t.expose('meta', { type: 'JSONObject' }),
    }),
  });
}

/**
 * Runs a capped, most-recent-first list query and its meta. The count query runs only
 * when the cap was reached, since fewer rows than the cap means nothing was cut.
 */
export async function cappedList<T>(
  cap: number,
  rows: (take: number) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<ListEnvelope<T>> {
  const data = await rows(cap);
  const total = data.length < cap ? data.length : await count();
  return firstPageOf(data, total);
}

/**
 * A keyset page's answer from its page of rows (db/paging.ts `toPage` over the limit + 1 rows
 * read), the total over every page and the cursor a row continues from.
 */
export function keysetPageOf<T>(page: Page<T>, total: number, cursorOf: (row: T) => string): KeysetPage<T> {
  const last = page.rows.at(-1);
  const nextCursor = page.hasNextPage && last ? cursorOf(last) : null;
  return { data: page.rows, meta: { total, truncated: page.hasNextPage, nextCursor } };
}

/** For a resource whose data is a single object: meta is an empty object. */
export const emptyMeta = (): Record<string, unknown> => ({});

// Cursor connections (Relay's shape: edges, node, cursor, pageInfo), newest first. A cursor is
// the row's sort value and id, opaque to callers (base64url JSON); keyset pagination keeps a
// page's cost independent of how deep it is.
import type { ArgBuilder, ObjectRef } from '@pothos/core';
import { builder } from './builder.js';
import { invalidParameter } from '../errors/index.js';

type GraphQLTypes = typeof builder.$inferSchemaTypes;

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Cursor {
  sortValue: string;
  id: string;
}

/** What a repository needs for one page: its size and where the previous page ended. */
export interface PageArgs {
  first: number;
  after: Cursor | null;
}

export interface Page<T> {
  rows: T[];
  hasNextPage: boolean;
}

export const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify([cursor.sortValue, cursor.id])).toString('base64url');

/** Reads a cursor; `isSortValue` checks its sort value is of the connection's kind (a date, a time). */
export function decodeCursor(value: string, isSortValue: (sortValue: string) => boolean): Cursor {
  try {
    const [sortValue, id] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown[];
    if (typeof sortValue === 'string' && typeof id === 'string' && isSortValue(sortValue)) return { sortValue, id };
  } catch {
    // falls through to the refusal below
  }
  throw invalidParameter('after', 'after is not a cursor returned by this connection.');
}

export function pageArgs(first: number | null | undefined, after: string | null | undefined, isSortValue: (sortValue: string) => boolean): PageArgs {
  const size = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw invalidParameter('first', `first must be between 1 and ${MAX_PAGE_SIZE}.`);
  return { first: size, after: after ? decodeCursor(after, isSortValue) : null };
}

/** The `first` and `after` arguments of every connection field. */
export const pageArgFields = (arg: ArgBuilder<GraphQLTypes>) => ({
  first: arg.int({ required: false, description: `Page size, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` }),
  after: arg.string({ required: false, description: 'endCursor of the previous page.' }),
});

/** Splits the first+1 rows a repository fetched into the page and whether more follow. */
export const toPage = <T>(rows: T[], first: number): Page<T> => ({ rows: rows.slice(0, first), hasNextPage: rows.length > first });

const PageInfoType = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Pass as `after` for the next page.' }),
  }),
});

export function connectionType<T>(name: string, node: ObjectRef<GraphQLTypes, T, any>, cursorOf: (row: T) => Cursor) {
  const EdgeType = builder.objectRef<T>(`${name}Edge`).implement({
    fields: (t) => ({
      cursor: t.string({ resolve: (row) => encodeCursor(cursorOf(row)) }),
      node: t.field({ type: node, resolve: (row) => row as never }),
    }),
  });
  return builder.objectRef<Page<T>>(`${name}Connection`).implement({
    description: `${name}s, newest first.`,
    fields: (t) => ({
      edges: t.field({ type: [EdgeType], resolve: (page) => page.rows }),
      nodes: t.field({ type: [node], resolve: (page) => page.rows as never[] }),
      pageInfo: t.field({
        type: PageInfoType,
        resolve: (page) => ({ hasNextPage: page.hasNextPage, endCursor: page.rows.length ? encodeCursor(cursorOf(page.rows.at(-1)!)) : null }),
      }),
    }),
  });
}

// Cursor connections (Relay's shape: edges, node, cursor, pageInfo), newest first, over the
// keyset pages of db/paging.ts.
import type { ArgBuilder, ObjectRef } from '@pothos/core';
import { builder } from './builder.js';
import { encodeCursor, PAGE_SIZE, type Cursor, type Page } from '../db/paging.js';
import { COUNTED_BY_PARENT } from './cost.js';
import { boundedIntArg, boundedListCost } from './bounded-int.js';

type GraphQLTypes = typeof builder.$inferSchemaTypes;

/** The cost of a connection field: its page counted `first` times (its edges and nodes count once each). */
export const pageCost = (args: { first?: number | null }) => boundedListCost(args.first, PAGE_SIZE);

/** The `first` and `after` arguments of every connection field. */
export const pageArgFields = (arg: ArgBuilder<GraphQLTypes>) => ({
  first: boundedIntArg(arg, PAGE_SIZE, 'Page size'),
  after: arg.string({ required: false, description: 'endCursor of the previous page.' }),
});

const PageInfoType = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Pass as `after` for the next page.' }),
  }),
});

export function connectionType<T>(
  name: string,
  node: ObjectRef<GraphQLTypes, T, unknown>,
  cursorOf: (row: T) => Cursor,
) {
  const EdgeType = builder.objectRef<T>(`${name}Edge`).implement({
    fields: (t) => ({
      cursor: t.string({ resolve: (row) => encodeCursor(cursorOf(row)) }),
      node: t.field({ type: node, resolve: (row) => row as never }),
    }),
  });
  return builder.objectRef<Page<T>>(`${name}Connection`).implement({
    description: `${name}s, newest first.`,
    fields: (t) => ({
      edges: t.expose('rows', { type: [EdgeType], complexity: COUNTED_BY_PARENT }),
      nodes: t.expose('rows', { type: [node], complexity: COUNTED_BY_PARENT }),
      pageInfo: t.field({
        type: PageInfoType,
        resolve: (page) => ({
          hasNextPage: page.hasNextPage,
          endCursor: page.rows.length ? encodeCursor(cursorOf(page.rows.at(-1)!)) : null,
        }),
      }),
    }),
  });
}

// Cursor connections (Relay's shape: edges, node, cursor, pageInfo), newest first, over the
// keyset pages of db/paging.ts. Their cursors are bound as v1's are (`cursorBinding`): to the
// workspace, the connection, its parent and its other arguments as sent.
import type { ArgBuilder, ObjectRef } from '@pothos/core';
import { builder } from './builder.js';
import {
  cursorBinding,
  decodeCursor,
  encodeCursor,
  PAGE_SIZE,
  type Cursor,
  type Page,
  type PageArgs,
} from '../db/paging.js';
import { withinBounds } from '../errors/index.js';
import { COUNTED_BY_PARENT } from './cost.js';
import { boundedIntArg, boundedListCost } from './bounded-int.js';
import type { GraphQLContext } from './context.js';

type GraphQLTypes = typeof builder.$inferSchemaTypes;

/** The cost of a connection field: its page counted `first` times (its edges and nodes count once each). */
export const pageCost = (args: { first?: number | null }) => boundedListCost(args.first, PAGE_SIZE);

/** The `first` and `after` arguments of every connection field. */
export const pageArgFields = (arg: ArgBuilder<GraphQLTypes>) => ({
  first: boundedIntArg(arg, PAGE_SIZE, 'Page size'),
  after: arg.string({ required: false, description: 'endCursor of the previous page.' }),
});

/** A connection's arguments as the resolver gets them: `first`, `after` and its filters. */
type ConnectionArgs = { first?: number | null; after?: string | null } & Record<string, unknown>;

/** A page with the binding its cursors carry. */
interface BoundPage<T> extends Page<T> {
  binding: string;
}

const PageInfoType = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Pass as `after` for the next page.' }),
  }),
});

/**
 * What a cursor of `connection` under `parentId` is bound to: the workspace and the filters as
 * sent (`first` may change between pages). A filter sent as null filters nothing, as an omitted one:
 * both are left out, so either binds the same (GraphQL passes only the arguments a query names).
 */
export function connectionBinding(workspaceId: string, connection: string, parentId: string, args: ConnectionArgs) {
  const filters = Object.keys(args)
    .filter((name) => name !== 'first' && name !== 'after' && args[name] != null)
    .sort()
    .map((name) => [name, args[name]]);
  return cursorBinding(workspaceId, connection, parentId, filters);
}

/**
 * A connection type and how its field reads a page: `cursorOf` says where a row sits,
 * `isSortValue` checks a cursor's sort value is of that kind (a date, a time).
 */
export function connectionType<T>(
  name: string,
  node: ObjectRef<GraphQLTypes, T, unknown>,
  cursorOf: (row: T) => Cursor,
  isSortValue: (sortValue: string) => boolean,
) {
  const EdgeType = builder.objectRef<{ node: T; cursor: string }>(`${name}Edge`).implement({
    fields: (t) => ({
      cursor: t.exposeString('cursor'),
      node: t.expose('node', { type: node }),
    }),
  });
  const type = builder.objectRef<BoundPage<T>>(`${name}Connection`).implement({
    description: `${name}s, newest first.`,
    fields: (t) => ({
      edges: t.field({
        type: [EdgeType],
        complexity: COUNTED_BY_PARENT,
        resolve: (page) => page.rows.map((row) => ({ node: row, cursor: encodeCursor(cursorOf(row), page.binding) })),
      }),
      nodes: t.expose('rows', { type: [node], complexity: COUNTED_BY_PARENT }),
      pageInfo: t.field({
        type: PageInfoType,
        resolve: (page) => ({
          hasNextPage: page.hasNextPage,
          endCursor: page.rows.length ? encodeCursor(cursorOf(page.rows.at(-1)!), page.binding) : null,
        }),
      }),
    }),
  });
  /**
   * One page of the connection under `parentId`: `after` is refused (400 `invalid_parameter`) unless this
   * connection returned it for this workspace, parent and filters; `load` reads the page it names.
   */
  async function read(
    ctx: GraphQLContext,
    parentId: string,
    args: ConnectionArgs,
    load: (page: PageArgs) => Promise<Page<T>>,
  ): Promise<BoundPage<T>> {
    const binding = connectionBinding(ctx.workspace.workspaceId, name, parentId, args);
    const first = withinBounds(args.first, PAGE_SIZE, 'first');
    const after = args.after ? decodeCursor(args.after, isSortValue, 'after', binding) : null;
    return { ...(await load({ first, after })), binding };
  }
  return { type, read };
}

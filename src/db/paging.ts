// Keyset pages: a cursor is the row's sort value and id, opaque to callers (base64url JSON); a
// repository fetches first+1 rows after the cursor, so a page's cost does not grow with depth.
// The GraphQL connection types over these live in graphql/connection.ts; v1's keyset pages and
// the connections bind their cursors alike (`cursorBinding`).
import { createHash } from 'node:crypto';
import { intBounds, invalidParameter } from '../errors/index.js';
import { textProblem } from '../http/text-input.js';

/** `first` of every connection. */
export const PAGE_SIZE = intBounds(1, 100, 20);

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

/** How complete a capped collection is (the `meta` of the v1 envelope). */
export interface ListMetaShape {
  total: number;
  truncated: boolean;
}

/** A capped list and its meta: the v1 envelope's shape, exposed to GraphQL by graphql/envelope.ts. */
export interface ListEnvelope<T> {
  data: T[];
  meta: ListMetaShape;
}

/**
 * A capped list (a first page) from its rows and the total before the cap: `truncated` when the cap
 * cut some, i.e. more rows follow the last one held — what it means on every page shape.
 */
export const firstPageOf = <T>(data: T[], total: number): ListEnvelope<T> => ({
  data,
  meta: { total, truncated: total > data.length },
});

/**
 * What a cursor is bound to: the workspace, the list (a v1 endpoint, a GraphQL connection), its
 * parent (a project, a prompt) and the filters as the caller sent them. A cursor read under
 * another binding would be a keyset position in some other list, silently skipping or repeating
 * rows, so it is refused instead. A digest, not a secret: a position someone forges still reads
 * only their own workspace's rows.
 */
export const cursorBinding = (...parts: unknown[]): string =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);

export const encodeCursor = (cursor: Cursor, binding: string) =>
  Buffer.from(JSON.stringify([cursor.sortValue, cursor.id, binding])).toString('base64url');

/**
 * Reads a cursor; `isSortValue` checks its sort value is of the connection's kind (a date, a time),
 * `binding` that it was made for this list.
 */
export function decodeCursor(
  value: string,
  isSortValue: (sortValue: string) => boolean,
  param: string,
  binding: string,
): Cursor {
  let parts: unknown[] | null = null;
  try {
    parts = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown[];
  } catch {
    // refused below
  }
  const [sortValue, id, boundTo] = Array.isArray(parts) ? parts : [];
  if (
    typeof sortValue !== 'string' ||
    typeof id !== 'string' ||
    !isSortValue(sortValue) ||
    textProblem(id) !== null ||
    parts!.length !== 3
  ) {
    throw invalidParameter(
      param,
      `${param} is not a cursor returned by this ${param === 'after' ? 'connection' : 'endpoint'}.`,
    );
  }
  const elsewhere =
    param === 'after'
      ? 'another connection, parent, workspace or set of filters'
      : 'another workspace, project or set of filters';
  if (boundTo !== binding)
    throw invalidParameter(
      param,
      `${param} was returned for ${elsewhere}; ` +
        `send the same filters as the request that returned it, or start again without ${param}.`,
    );
  return { sortValue, id };
}

/** Splits the first+1 rows a repository fetched into the page and whether more follow. */
export const toPage = <T>(rows: T[], first: number): Page<T> => ({
  rows: rows.slice(0, first),
  hasNextPage: rows.length > first,
});

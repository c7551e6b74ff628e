// Keyset pages: a cursor is the row's sort value and id, opaque to callers (base64url JSON); a
// repository fetches first+1 rows after the cursor, so a page's cost does not grow with depth.
// The GraphQL connection types over these live in graphql/connection.ts.
import { invalidParameter } from '../errors/index.js';
import { textProblem } from '../http/text-input.js';

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
export function decodeCursor(value: string, isSortValue: (sortValue: string) => boolean, param = 'after'): Cursor {
  try {
    const [sortValue, id] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown[];
    if (typeof sortValue === 'string' && typeof id === 'string' && isSortValue(sortValue) && !textProblem(id)) return { sortValue, id };
  } catch {
    // falls through to the refusal below
  }
  throw invalidParameter(param, `${param} is not a cursor returned by this ${param === 'after' ? 'connection' : 'endpoint'}.`);
}

export function pageArgs(first: number | null | undefined, after: string | null | undefined, isSortValue: (sortValue: string) => boolean): PageArgs {
  const size = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw invalidParameter('first', `first must be between 1 and ${MAX_PAGE_SIZE}.`);
  return { first: size, after: after ? decodeCursor(after, isSortValue) : null };
}

/** Splits the first+1 rows a repository fetched into the page and whether more follow. */
export const toPage = <T>(rows: T[], first: number): Page<T> => ({ rows: rows.slice(0, first), hasNextPage: rows.length > first });

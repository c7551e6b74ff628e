// Turning the pages of a keyset-paged list. Keyset paging only goes forward: to go back, a view
// keeps the cursors of the pages before the one shown. On a web page they are in its address,
// so only the last few are kept, whatever the number of pages turned (each turn would otherwise
// lengthen the address until the server refuses it), with the shown page's number for its place
// in the list. Pure.

/** Cursors kept of the pages before the shown one (the nearest). */
export const PAGES_KEPT = 10;

export interface PageState {
  /** The shown page's cursor; none for the first page. */
  cursor?: string;
  /** The cursors of the pages before the shown one, the nearest last ('' for the first page). */
  before?: string[];
  /** The shown page's number, from 1. */
  page?: number;
}

/** The shown page's number: as the state says, never less than its kept cursors imply (1 without a cursor). */
export function pageNumber(state: PageState): number {
  if (!state.cursor) return 1;
  const least = (state.before?.length ?? 0) + 1;
  return Number.isInteger(state.page) && state.page! > least ? state.page! : least;
}

/** The page after the shown one, at `next`: the shown page's cursor kept, the farthest forgotten past PAGES_KEPT. */
export function older(state: PageState, next: string): Required<PageState> {
  const before = [...(state.before ?? []), state.cursor ?? ''].slice(-PAGES_KEPT);
  return { cursor: next, before, page: pageNumber(state) + 1 };
}

/**
 * The page before the shown one, or the first page when its cursor was forgotten (`skips` then
 * says so); null on the first page.
 */
export function newer(state: PageState): { state: PageState; skips: boolean } | null {
  const page = pageNumber(state);
  if (page === 1) return null;
  const before = state.before ?? [];
  const cursor = before.at(-1);
  if (!cursor) return { state: {}, skips: cursor === undefined && page > 2 };
  return { state: { cursor, before: before.slice(0, -1), page: page - 1 }, skips: false };
}

// Turning the answers view's pages (web/views/common/pages.ts): the cursors kept to go back are
// bounded, so the web page's address stays short however many pages are turned (it grew by a
// cursor a turn until the server refused it, 431, after about 185), and the page's place in the
// list stays right.
import { describe, expect, it } from 'vitest';
import { newer, older, pageNumber, PAGES_KEPT, type PageState } from '../../web/views/common/pages.js';
import { queryOf } from '../../web/views/common/address.js';
import { cursorBinding, encodeCursor } from '../../src/db/paging.js';

// The server's cursors, as it writes them for the answers' list (a date, an id and what the list is bound to).
const cursorOf = (page: number) => {
  const day = String((page % 28) + 1).padStart(2, '0');
  const id = `ans_${String(page).padStart(20, '0')}`;
  return encodeCursor({ sortValue: `2026-11-${day}`, id }, cursorBinding('ws', 'prj'));
};

describe('the pages of a keyset list', () => {
  it('keeps the address short and the page number right over 1 000 turns', () => {
    let state: PageState = {};
    const lengths: number[] = [];
    for (let page = 2; page <= 1_000; page++) {
      state = older(state, cursorOf(page));
      lengths.push(queryOf({ id: 'prj', ...state }, { id: 'prj' }).length);
      expect(state.before!.length).toBeLessThanOrEqual(PAGES_KEPT);
    }
    expect(pageNumber(state)).toBe(1_000);
    expect(Math.max(...lengths)).toBeLessThan(1_200);
    // Past the cursors kept, only the page number's digits lengthen it.
    expect(lengths.at(-1)! - lengths[PAGES_KEPT + 10]!).toBeLessThanOrEqual(2);
  });

  it('goes back page by page while it has the cursors, then to the first page, saying it skips', () => {
    let state: PageState = {};
    for (let page = 2; page <= 30; page++) state = older(state, cursorOf(page));
    for (let page = 29; page >= 30 - PAGES_KEPT; page--) {
      const back = newer(state)!;
      expect(back.skips).toBe(false);
      state = back.state;
      expect(pageNumber(state)).toBe(page);
      expect(state.cursor).toBe(cursorOf(page));
    }
    expect(newer(state)).toEqual({ state: {}, skips: true });
  });

  it('goes from the second page to the first without skipping, and nowhere from the first', () => {
    const second = older({}, cursorOf(2));
    expect(second).toEqual({ cursor: cursorOf(2), before: [''], page: 2 });
    expect(newer(second)).toEqual({ state: {}, skips: false });
    expect(newer({})).toBeNull();
  });

  it('reads a page number no smaller than its cursors imply, and none without a cursor', () => {
    expect(pageNumber({ cursor: 'c', before: ['', 'b'] })).toBe(3);
    expect(pageNumber({ cursor: 'c', before: ['a', 'b'], page: 40 })).toBe(40);
    expect(pageNumber({ cursor: 'c', before: ['', 'b'], page: 1 })).toBe(3);
    expect(pageNumber({ cursor: 'c', page: Number.NaN })).toBe(1);
    expect(pageNumber({ page: 7 })).toBe(1);
  });
});

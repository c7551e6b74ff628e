// One page shape inside, one meaning of `truncated`: rows follow the last one the answer holds.
import { describe, expect, it } from 'vitest';
import { toPage } from '../../src/db/paging.js';
import { firstPageOf, keysetPageOf } from '../../src/graphql/envelope.js';

describe('page shapes', () => {
  const cursorOf = (row: number) => `after-${row}`;

  it('a keyset page is truncated exactly when another page follows, and only then has a next cursor', () => {
    expect(keysetPageOf(toPage([1, 2, 3], 2), 9, cursorOf)).toEqual({
      data: [1, 2],
      meta: { total: 9, truncated: true, nextCursor: 'after-2' },
    });
    // The last page of several: rows came before it, none follow.
    expect(keysetPageOf(toPage([8, 9], 2), 9, cursorOf)).toEqual({
      data: [8, 9],
      meta: { total: 9, truncated: false, nextCursor: null },
    });
    expect(keysetPageOf(toPage([], 2), 0, cursorOf).meta).toEqual({ total: 0, truncated: false, nextCursor: null });
  });

  it('a capped list (a first page) is truncated exactly when the cap cut rows', () => {
    expect(firstPageOf([1, 2], 5).meta).toEqual({ total: 5, truncated: true });
    expect(firstPageOf([1, 2], 2).meta).toEqual({ total: 2, truncated: false });
  });
});

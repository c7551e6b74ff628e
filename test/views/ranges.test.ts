// The ranges a view offers stay within what its reads accept: the answers view's widest range is
// the prompts read's (a 90-day choice there was a 400 that replaced the whole page).
import { describe, expect, it } from 'vitest';
import { ANSWERS_WIDEST_RANGE_DAYS, rangeChoices } from '../../web/views/common/ranges.js';
import { PROMPTS_RANGE } from '../../src/ai-visibility/common/read-filters.js';

describe('rangeChoices', () => {
  it('offers the usual ranges, and the shown one where it is not among them', () => {
    expect(rangeChoices(30)).toEqual([7, 30, 90, 365]);
    expect(rangeChoices(14)).toEqual([7, 14, 30, 90, 365]);
  });

  it('offers nothing past the widest range a view can read, and that range itself', () => {
    expect(rangeChoices(30, 60)).toEqual([7, 30, 60]);
    expect(rangeChoices(60, 60)).toEqual([7, 30, 60]);
  });

  it("holds the answers view to the prompts read's widest range", () => {
    expect(ANSWERS_WIDEST_RANGE_DAYS).toBe(PROMPTS_RANGE.maxDays);
  });
});

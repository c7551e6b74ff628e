import { describe, expect, it } from 'vitest';
import { queryKeyParts } from '../../src/ai-visibility/retrieval.js';

describe('queryKeyParts', () => {
  it('keeps a usual run in one part, in code-point order (bytes, not UTF-16 units)', () => {
    expect(queryKeyParts(['b', '\u{1F600} emoji', 'a', '\uFF21 wide'])).toEqual([{ part: 0, queries: ['a', 'b', '\uFF21 wide', '\u{1F600} emoji'] }]);
  });

  it('starts a key in part ⌊(bytes before it, 8 more each) / 512⌋, so a part never holds more than 512 bytes plus its last key', () => {
    const keys = ['a'.repeat(300), 'b'.repeat(200), 'c'.repeat(10), 'd'.repeat(1500), 'e'];
    // before: 0, 308, 516, 534, 2042
    expect(queryKeyParts(keys).map(({ part, queries }) => [part, queries.map((query) => query.length)])).toEqual([
      [0, [300, 200]],
      [1, [10, 1500]],
      [3, [1]],
    ]);
  });

  it('has no part for a run without searches', () => {
    expect(queryKeyParts([])).toEqual([]);
  });
});

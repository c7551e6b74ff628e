import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStringBytes, pathOverSize } from '../../src/http/response-size.js';

describe('jsonStringBytes', () => {
  it('is the UTF-8 length of the JSON text of any string, escapes and quotes included', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        (text) => jsonStringBytes(text) === Buffer.byteLength(JSON.stringify(text)),
      ),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('\u0001', '"', '\\', '\n', 'é', '€', 'a'), maxLength: 200 }),
        (text) => jsonStringBytes(text) === Buffer.byteLength(JSON.stringify(text)),
      ),
    );
  });
});

describe('pathOverSize', () => {
  it('counts a text of control characters as the six bytes each JSON writes (\\u0001), not one', () => {
    const value = { text: '\u0001'.repeat(1_000) };
    expect(pathOverSize(value, 2_000)).toBe('text');
    expect(pathOverSize(value, JSON.stringify(value).length + 8)).toBeNull();
  });

  it(
    'is null while the JSON text fits (a scalar counts as 8 ' +
      'characters, and each object or array one separator more)',
    () => {
      const value = { data: [{ id: 'a', text: 'x'.repeat(100), n: 12345678, none: null }] };
      expect(pathOverSize(value, JSON.stringify(value).length + 8)).toBeNull();
    },
  );

  it('never counts less than the JSON text of strings, arrays and keys', () => {
    const value = { items: Array.from({ length: 50 }, (_, i) => ({ key: `value ${i}`, list: ['a', 'b'] })) };
    expect(pathOverSize(value, JSON.stringify(value).length - 1)).not.toBeNull();
  });

  it('names the path of the value at which the count ran over', () => {
    const value = { first: { text: 'short' }, copies: [{ text: 'x'.repeat(10) }, { text: 'y'.repeat(1000) }] };
    expect(pathOverSize(value, 200)).toBe('copies.1.text');
  });

  it('counts a string shared by many places once per place, as serialization does', () => {
    const text = 'z'.repeat(1000);
    const value = Array.from({ length: 20 }, () => ({ text }));
    expect(pathOverSize(value, 10_000)).toBe('9.text');
  });

  it("answers as the count written out step by step: checked after each scalar and at each container's end", () => {
    // The count as a list of steps in the order JSON writes them: what each step adds, and the
    // path checked after it (none for brackets and keys, which the next value's check covers).
    type Step = { adds: number; checked: string | null };
    const textSize = (text: string, exact: boolean) =>
      exact ? Buffer.byteLength(JSON.stringify(text)) : text.length + 2;
    const stepsOf = (value: unknown, exact: boolean, path: string[] = []): Step[] => {
      const at = path.join('.');
      if (typeof value === 'string') return [{ adds: textSize(value, exact), checked: at }];
      if (value === null || typeof value !== 'object') return [{ adds: 8, checked: at }];
      const isArray = Array.isArray(value);
      const entries = isArray ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
      const inside = entries.flatMap(([key, child]) => [
        ...(isArray ? [] : [{ adds: key.length + 4, checked: null }]),
        ...stepsOf(child, exact, [...path, key]),
      ]);
      return [{ adds: isArray ? 2 + value.length : 2, checked: null }, ...inside, { adds: 0, checked: at }];
    };
    const firstOver = (value: unknown, budget: number, exact: boolean) => {
      let count = 0;
      for (const { adds, checked } of stepsOf(value, exact)) {
        if ((count += adds) > budget && checked !== null) return checked;
      }
      return null;
    };
    const expected = (value: unknown, maxBytes: number) =>
      firstOver(value, Math.floor(maxBytes / 6), false) === null ? null : firstOver(value, maxBytes, true);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.double({ min: 0, max: 1.2, noNaN: true }), (value, share) => {
        const maxBytes = Math.floor(share * Buffer.byteLength(JSON.stringify(value) ?? ''));
        expect(pathOverSize(value, maxBytes)).toBe(expected(value, maxBytes));
      }),
      { numRuns: 3_000 },
    );
  });
});

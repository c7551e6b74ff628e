// A batch is counted on its bytes, before it is decoded and parsed: the count is the array's
// length for any JSON, whatever its strings hold, and null for a body that is not an array.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchLength } from '../../src/mcp/messages.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('batchLength', () => {
  it('is the length of any JSON array, spaced or not', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 30 }), fc.boolean(), (array, spaced) => batchLength(bytes(spaced ? ` ${JSON.stringify(array, null, 2)}\n` : JSON.stringify(array))) === array.length),
      { numRuns: 1_000 },
    );
  });

  it('counts nothing inside strings, escaped quotes included', () => {
    expect(batchLength(bytes('[{"a":"x,y\\",]"},{"b":[1,2,{"c":"],["}]}]'))).toBe(2);
  });

  it('is null for a body that is not an array', () => {
    fc.assert(fc.property(fc.jsonValue().filter((value) => !Array.isArray(value)), (value) => batchLength(bytes(JSON.stringify(value))) === null));
    expect(batchLength(bytes('not json'))).toBeNull();
  });
});

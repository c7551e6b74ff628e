// The direct path's response bytes (src/mcp/tool-results.ts): assembled from parts with the data
// serialized once, they equal what serializing the whole response gives, for any data.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resultResponseBody, structured, toolError } from '../../src/mcp/tools/tool-results.js';
import { ApiError } from '../../src/errors/index.js';

const whole = (id: string | number, result: unknown) => Buffer.from(JSON.stringify({ result, jsonrpc: '2.0', id }));

describe('resultResponseBody', () => {
  it(
    'writes a structured result exactly as serializing the whole response would, whatever ' +
      'its text (quotes, backslashes, controls, lone surrogates, any script)',
    () => {
      const id = fc.oneof(fc.string({ unit: 'grapheme' }), fc.integer());
      const data = fc.dictionary(
        fc.string({ unit: 'binary' }),
        fc.jsonValue({ maxDepth: 3 }).chain((value) => fc.oneof(fc.constant(value), fc.string({ unit: 'binary' }))),
      );
      fc.assert(
        fc.property(id, data, (anId, someData) => {
          expect(Buffer.from(resultResponseBody(anId, structured(someData)))).toEqual(
            whole(anId, structured(someData)),
          );
        }),
        { numRuns: 500 },
      );
    },
  );

  it('writes other results whole', () => {
    const error = toolError(new ApiError('not_found', 'Nothing with that id — “here”.'));
    expect(Buffer.from(resultResponseBody('x', error))).toEqual(whole('x', error));
    const copied = { ...structured({ a: 1 }) };
    expect(Buffer.from(resultResponseBody(1, copied))).toEqual(whole(1, copied));
  });
});

// The service's text rule (no NUL, well-formed Unicode, UTF-8 bytes), as properties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkedSearchParams,
  findTextProblem,
  jsonMayHoldBadText,
  textProblem,
  utf8Text,
} from '../../src/http/text-input.js';
import { ApiError } from '../../src/errors/index.js';

const wellFormed = (value: string) => (value as unknown as { isWellFormed(): boolean }).isWellFormed();
const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error as ApiError;
  }
  return null;
};

describe('textProblem', () => {
  it('refuses exactly the strings with NUL or a lone surrogate', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(textProblem(value) === null).toBe(!value.includes('\0') && wellFormed(value));
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\0', '\uD800', '\uDC00', '😀', 'é') }), (value) => {
        expect(textProblem(value) === null).toBe(!value.includes('\0') && wellFormed(value));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('findTextProblem', () => {
  it('names the path of the first refused string, keys included', () => {
    expect(findTextProblem({ runs: [{ answer: 'ok' }, { answer: 'a\0b' }] }, '')).toEqual({
      path: 'runs[1].answer',
      problem: expect.stringMatching(/NUL/),
    });
    expect(findTextProblem({ a: { ['k\0']: 1 } }, '')).toEqual({
      path: 'a.{key}',
      problem: expect.stringMatching(/NUL/),
    });
    expect(findTextProblem({ tags: ['x', '\uDC00'] }, 'variables')).toEqual({
      path: 'variables.tags[1]',
      problem: expect.stringMatching(/surrogate/),
    });
    expect(findTextProblem({ n: 1, b: true, z: null, s: 'fine 😀' }, '')).toBeNull();
  });
});

describe('jsonMayHoldBadText', () => {
  it('never clears JSON text whose parsed value findTextProblem refuses', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 8 }), (value, odd) => {
        // Any JSON text: as JSON.stringify writes it (escapes) and with the odd string raw in it.
        for (const json of [JSON.stringify({ value, odd }), `{"odd":"${odd.replace(/["\\\u0000-\u001f]/g, '')}"}`]) {
          if (!jsonMayHoldBadText(json)) expect(findTextProblem(JSON.parse(json), '')).toBeNull();
        }
      }),
    );
  });

  it('clears plain text and flags escapes and raw lone surrogates', () => {
    expect(jsonMayHoldBadText('{"a":"Acme – café 😀","b":[1,2]}')).toBe(false);
    expect(jsonMayHoldBadText('{"a":"x\\u0000"}')).toBe(true);
    expect(jsonMayHoldBadText('{"a":"\\ud800"}')).toBe(true);
    expect(jsonMayHoldBadText('{"a":"\ud800"}')).toBe(true);
  });
});

describe('checkedSearchParams', () => {
  it('gives back every well-formed value without NUL, and refuses one with NUL naming its parameter', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(), (value, at) => {
        fc.pre(!value.includes('\0'));
        expect(checkedSearchParams(`?name=${encodeURIComponent(value)}&other=1`).get('name')).toBe(value);
        const points = Array.from(value);
        points.splice(at % (points.length + 1), 0, '\0');
        const error = refusal(() => checkedSearchParams(`?other=1&name=${encodeURIComponent(points.join(''))}`));
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toMatchObject({ code: 'invalid_parameter', param: 'name' });
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses bytes that are not UTF-8 naming the parameter', () => {
    for (const search of ['?locale=%FF', '?topic=%C3', '?tag=%ED%A0%80', '?cursor=%E0%A4%A']) {
      const error = refusal(() => checkedSearchParams(search));
      expect(error, search).toMatchObject({ code: 'invalid_parameter', param: search.slice(1, search.indexOf('=')) });
      expect(error?.message).toMatch(/UTF-8/);
    }
    expect(checkedSearchParams('?a=%C3%A9+b').get('a')).toBe('é b');
    // Parameters a route does not take are not checked (v1 ignores them).
    expect(checkedSearchParams('?x=%00&%FF=%FF&a=1', (name) => name === 'a').get('a')).toBe('1');
    expect(refusal(() => checkedSearchParams('?x=%00&a=%00', (name) => name === 'a'))).toMatchObject({ param: 'a' });
  });
});

describe('utf8Text', () => {
  it('decodes every UTF-8 encoding and refuses bytes that are not UTF-8', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        expect(utf8Text(new TextEncoder().encode(value))).toBe(value);
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const strict = (() => {
          try {
            new TextDecoder('utf-8', { fatal: true }).decode(bytes);
            return true;
          } catch {
            return false;
          }
        })();
        expect(refusal(() => utf8Text(bytes)) === null).toBe(strict);
      }),
      { numRuns: 5000 },
    );
  });
});

// ApiError is an answer (a 400, a 429), thrown on hot paths: it carries its code, status and
// headers, and no stack, which nobody reads and which cost half of a refusal.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/index.js';

describe('ApiError', () => {
  it('carries its code, status, parameter and headers in its GraphQL extensions', () => {
    const error = new ApiError('rate_limited', 'Slow down.', { headers: { 'Retry-After': '2' } });
    expect([error.code, error.status, error.headers]).toEqual(['rate_limited', 429, { 'Retry-After': '2' }]);
    expect(error.extensions).toEqual({ code: 'rate_limited', http: { status: 429, headers: { 'Retry-After': '2' } } });
    expect(new ApiError('invalid_parameter', 'Bad.', { param: 'limit' }).extensions).toMatchObject({
      code: 'invalid_parameter',
      param: 'limit',
    });
  });

  it('captures no stack frames, and leaves the stack trace limit of other errors as it was', () => {
    const before = Error.stackTraceLimit;
    expect(new ApiError('not_found', 'No such thing.').stack).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('a fault').stack).toMatch(/\n\s+at /);
  });
});

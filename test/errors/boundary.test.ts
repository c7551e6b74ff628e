// The one boundary (src/doors/boundary.ts): any error becomes its door's envelope, a use case's
// refusal is mapped once (by its reason), and only a fault is logged — once, with the request id.
import { describe, expect, it } from 'vitest';
import { GraphQLError, locatedError } from 'graphql';
import { ApiError, UsageError } from '../../src/errors/index.js';
import { graphqlFailure, jsonFailure, pageFailure, toolFailure } from '../../src/doors/index.js';

const site = () => {
  const logged: unknown[] = [];
  return {
    logged,
    requestId: 'req_test',
    what: 'test failed',
    logger: { error: (fields: object) => logged.push(fields) },
  };
};
const browser = new Request('http://x/app/settings', { headers: { accept: 'text/html' } });
const api = new Request('http://x/app/settings', { headers: { accept: 'application/json' } });

describe('the boundary', () => {
  it('maps a UsageError by its reason for every door, without logging it', async () => {
    const at = site();
    const conflict = new UsageError('Taken.', 'conflict');
    expect(jsonFailure(conflict, at).status).toBe(409);
    expect(await jsonFailure(new UsageError('Bad.'), at).json()).toEqual({
      error: { code: 'invalid_body', message: 'Bad.', requestId: 'req_test' },
    });
    expect(pageFailure(browser, new UsageError('Nope.', 'forbidden'), at, true).status).toBe(403);
    // A tool's bad input is a parameter; inside a resolver's located error it is still the refusal.
    expect(JSON.parse(toolFailure(new UsageError('Bad.'), at).content[0].text).error.code).toBe('invalid_parameter');
    expect((graphqlFailure(locatedError(new UsageError('Gone.', 'not_found'), null), at) as ApiError).code).toBe(
      'not_found',
    );
    expect(at.logged).toEqual([]);
  });

  it('answers a fault as a generic 500 and logs it once with the request id', async () => {
    const at = site();
    const response = jsonFailure(new Error('boom'), at, { 'X-RateLimit-Limit': '5' });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-ratelimit-limit')).toBe('5');
    expect((await response.json()).error.code).toBe('internal_error');
    expect(at.logged).toHaveLength(1);
    expect(at.logged[0]).toMatchObject({ requestId: 'req_test' });
  });

  it('gives browsers a page and API clients the envelope at the page door', async () => {
    const at = site();
    const refusal = new ApiError('not_found', 'No such page.');
    const page = pageFailure(browser, refusal, at, false);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Request req_test');
    expect((await pageFailure(api, refusal, at, false).json()).error.code).toBe('not_found');
  });

  it('lets /graphql keep its own errors as they are (with their path)', () => {
    const own = new GraphQLError('Unknown field.');
    expect(graphqlFailure(own, site())).toBe(own);
  });
});

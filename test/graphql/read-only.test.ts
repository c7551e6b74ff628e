// What /graphql refuses as a document is validated — a mutation or a subscription (it is read-only),
// too many aliases, too deep, too many directives — comes with its code and, for
// application/graphql-response+json, a 400.
import { describe, expect, it } from 'vitest';
import { json } from '../support/app.js';
import { useKeyedApp } from '../support/keyed-app.js';

const keyed = useKeyedApp();

const post = (query: string, accept: string) =>
  keyed.t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${keyed.key}`, 'content-type': 'application/json', accept },
      body: JSON.stringify({ query }),
    }),
  );

describe('/graphql runs queries only', () => {
  it.each([
    ['mutation { __typename }', 'mutation'],
    ['subscription { __typename }', 'subscription'],
  ])('refuses %s as a validation error with its code', async (query, kind) => {
    const strict = await post(query, 'application/graphql-response+json');
    const body = await json(strict);
    expect(strict.status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: `This API is read-only: it runs queries, not ${kind}s.`,
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    ]);
    const plain = await json(await post(query, 'application/json'));
    expect(plain.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('still runs a query beside the rule', async () => {
    const response = await post('query Q { __typename }', 'application/json');
    expect(await json(response)).toEqual({ data: { __typename: 'Query' } });
  });
});

describe("the armor's limits", () => {
  const repeated = (count: number, text: (index: number) => string) =>
    Array.from({ length: count }, (_, index) => text(index)).join(' ');
  it.each([
    ['aliases', `{ ${repeated(16, (index) => `a${index}: viewer { scopes }`)} }`, 'Aliases limit of 15'],
    [
      'depth',
      `{ ${'clients { data { reports { data { client { '.repeat(3)}id${' } } } } }'.repeat(3)} }`,
      'depth limit of 10',
    ],
    ['directives', `{ viewer ${repeated(11, () => '@include(if: true)')} { scopes } }`, 'Directives limit of 10'],
  ])('too many %s is a validation error with its code', async (_what, query, message) => {
    const response = await post(query, 'application/graphql-response+json');
    const body = await json(response);
    expect(response.status).toBe(400);
    expect(body.errors[0].message).toContain(message);
    expect(body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

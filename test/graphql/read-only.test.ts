// /graphql is read-only: a mutation or a subscription is refused as the document is validated,
// with a code and (for application/graphql-response+json) a 400, whatever it names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  key = (await createKeyedWorkspace(t.database)).key.secret;
});
afterAll(() => t.close());

const post = (query: string, accept: string) =>
  t.app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept },
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

// A query to /graphql of an in-memory app, as a client with an API key sends it.
import type { App } from '../../src/app.js';
import { json } from './app.js';

/** POSTs `query` with `variables` under `key`; the parsed answer (data, errors). */
export async function postGraphQL(app: App, key: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await app.fetch(
    new Request('http://test.local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return json(response);
}

// A context's per-request state kept beside it by Pothos is let go when its execution ends
// (graphql/context.ts, releaseContext): otherwise V8's scavenger keeps each request's entry
// alive until a full collection (test/bench/README.md, "what survived the scavenges").
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestCache } from '@pothos/plugin-scope-auth';
import { builder } from '../../src/graphql/builder.js';
import { json } from '../support/app.js';
import { useKeyedApp } from '../support/keyed-app.js';

const keyed = useKeyedApp();
afterEach(() => vi.restoreAllMocks());

/** The scope caches the request's resolvers used, by context. */
function recordCaches() {
  const original = RequestCache.fromContext.bind(RequestCache);
  const used = new Map<object, unknown>();
  vi.spyOn(RequestCache, 'fromContext').mockImplementation((context, schemaBuilder) => {
    const cache = original(context, schemaBuilder);
    used.set(context as object, cache);
    return cache;
  });
  return used;
}

function expectReleased(used: Map<object, unknown>) {
  vi.restoreAllMocks();
  expect(used.size).toBe(1);
  // A context whose cache was let go gets a new one when asked again.
  for (const [context, cache] of used)
    expect(RequestCache.fromContext(context as never, builder as never)).not.toBe(cache);
}

describe('a GraphQL context after its execution', () => {
  it('no longer holds its scope cache after a v1 request', async () => {
    const used = recordCaches();
    const response = await keyed.t.get('/api/v1/clients', keyed.key);
    expect(response.status).toBe(200);
    expectReleased(used);
  });

  it('no longer holds its scope cache after a /graphql request', async () => {
    const used = recordCaches();
    const response = await keyed.t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${keyed.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ clients { data { id } } }' }),
      }),
    );
    expect((await json(response)).data.clients.data).toEqual([]);
    expectReleased(used);
  });
});

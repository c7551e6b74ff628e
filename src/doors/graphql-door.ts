// /graphql as the app mounts it. Its server (doors/graphql.ts: Yoga, its plugins and executor,
// megabytes of heap) is loaded on its first request, like the MCP connector: an instance that
// serves only v1 never holds it (docs/decisions/lazy-doors.md).
import { GRAPHIQL_PAGE_POLICY } from '../graphql/graphiql.js';
import { BODY_LIMITS, bounded } from '../http/body.js';
import { pageSecurityHeaders } from '../http/html.js';
import type { GraphQLExchange, YogaDependencies } from './graphql.js';
import type { Exchange } from './request-cycle.js';

export function createGraphQLDoor(deps: YogaDependencies) {
  const load = async () => (await import('./graphql.js')).createGraphQLServer(deps);
  let server: ReturnType<typeof load> | null = null;
  return async (request: Request, _url: URL, { requestId }: Exchange): Promise<Response> => {
    const graphqlRequest = await bounded(request, BODY_LIMITS.graphql);
    const exchange: GraphQLExchange = { requestId, responseHeaders: {} };
    const response = await (await (server ??= load())).fetch(graphqlRequest, exchange);
    for (const [name, value] of Object.entries(exchange.responseHeaders)) response.headers.set(name, value);
    if (response.headers.get('content-type')?.startsWith('text/html'))
      for (const [name, value] of Object.entries(pageSecurityHeaders(GRAPHIQL_PAGE_POLICY)))
        response.headers.set(name, value);
    return response;
  };
}

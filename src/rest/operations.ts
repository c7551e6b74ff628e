// The GraphQL operation each v1 route runs: the document SOFA derives for the route's field
// (every field of its types; SOFA's OpenAPI describes exactly this), compiled once at start
// (graphql/compile.ts). A request is matched once (routes.ts) and runs its compiled operation
// directly; SOFA's own router is not on the request path.
import { buildOperationNodeForField } from '@graphql-tools/utils';
import type { CompiledQuery } from 'graphql-jit';
import { Kind, OperationTypeNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { compileOperation } from '../graphql/compile.js';
import { REST_ROUTES, type RestRoute } from './routes.js';

/** SOFA's default: follow a type back into itself at most once. */
export const SOFA_DEPTH_LIMIT = 1;

export function compileRouteOperations(schema: GraphQLSchema): ReadonlyMap<RestRoute, CompiledQuery> {
  return new Map(
    REST_ROUTES.map((route) => [
      route,
      compileOperation(schema, routeOperation(schema, route), `v1 route ${route.path}`),
    ]),
  );
}

/** The document a route runs: every field of its types, as SOFA derives it. */
export function routeOperation(schema: GraphQLSchema, route: RestRoute): DocumentNode {
  const operation = buildOperationNodeForField({
    schema,
    kind: OperationTypeNode.QUERY,
    field: route.field,
    models: [],
    ignore: [],
    circularReferenceDepth: SOFA_DEPTH_LIMIT,
  });
  return { kind: Kind.DOCUMENT, definitions: [operation] };
}

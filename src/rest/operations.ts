// The GraphQL operation each v1 route runs: the document SOFA derives for the route's field
// (every field of its types; SOFA's OpenAPI describes exactly this), compiled once with
// graphql-jit at start. A request is matched once (routes.ts) and runs its compiled operation
// directly; SOFA's own router is not on the request path.
import { buildOperationNodeForField } from '@graphql-tools/utils';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { Kind, OperationTypeNode, type GraphQLSchema } from 'graphql';
import { REST_ROUTES, type RestRoute } from './routes.js';

/** SOFA's default: follow a type back into itself at most once. */
export const SOFA_DEPTH_LIMIT = 1;

export function compileRouteOperations(schema: GraphQLSchema): ReadonlyMap<RestRoute, CompiledQuery> {
  return new Map(
    REST_ROUTES.map((route) => {
      const operation = buildOperationNodeForField({ schema, kind: OperationTypeNode.QUERY, field: route.field, models: [], ignore: [], circularReferenceDepth: SOFA_DEPTH_LIMIT });
      const compiled = compileQuery(schema, { kind: Kind.DOCUMENT, definitions: [operation] });
      if (!isCompiledQuery(compiled)) throw new Error(`v1 route ${route.path}: ${compiled.errors?.map((error) => error.message).join('; ')}`);
      return [route, compiled];
    }),
  );
}

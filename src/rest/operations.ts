// The GraphQL operation each v1 route runs: the document SOFA derives for the route's field
// (every field of its types; SOFA's OpenAPI describes exactly this), compiled once with
// graphql-jit at start. A request is matched once (routes.ts) and runs its compiled operation
// directly; SOFA's own router is not on the request path.
import { buildOperationNodeForField, pruneSchema } from '@graphql-tools/utils';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { isEnumType, Kind, OperationTypeNode, type GraphQLSchema } from 'graphql';
import { REST_ROUTES, type RestRoute } from './routes.js';

/** SOFA's default: follow a type back into itself at most once. */
export const SOFA_DEPTH_LIMIT = 1;

/**
 * Leaf serialization off: a built-in scalar or enum value leaves as the resolver gave it. With it
 * on, graphql-jit passes every leaf through a call that allocates its response path and error
 * locations first — five arrays a leaf, 1.3 ms of a cold 1 000-row metrics response, most of it
 * in the scavenger (test/bench/README.md, "2026-11-25, third session"). Custom scalars (dates,
 * ids, JSON) still serialize. What this relies on is checked: an enum of the v1 schema whose
 * internal value is not its name refuses to start (it would leave as the internal value), and
 * test/rest/operations.test.ts compares every route's body with /graphql's answer to the same
 * operation, which serializes each leaf.
 */
const COMPILE_OPTIONS = { disableLeafSerialization: true } as const;

export function compileRouteOperations(schema: GraphQLSchema): ReadonlyMap<RestRoute, CompiledQuery> {
  assertEnumsLeaveByName(schema);
  return new Map(
    REST_ROUTES.map((route) => {
      const compiled = compileQuery(schema, routeOperation(schema, route), undefined, COMPILE_OPTIONS);
      if (!isCompiledQuery(compiled)) throw new Error(`v1 route ${route.path}: ${compiled.errors?.map((error) => error.message).join('; ')}`);
      return [route, compiled];
    }),
  );
}

/** The document a route runs: every field of its types, as SOFA derives it. */
export function routeOperation(schema: GraphQLSchema, route: RestRoute) {
  const operation = buildOperationNodeForField({ schema, kind: OperationTypeNode.QUERY, field: route.field, models: [], ignore: [], circularReferenceDepth: SOFA_DEPTH_LIMIT });
  return { kind: Kind.DOCUMENT, definitions: [operation] } as const;
}

/**
 * Without leaf serialization an enum value leaves as its internal value: each enum v1 can return
 * (the graph-only ones, like the viewer's scopes, are out of reach) must stand for its own name.
 */
export function assertEnumsLeaveByName(schema: GraphQLSchema): void {
  for (const type of Object.values(pruneSchema(schema).getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith('__')) continue;
    const renamed = type.getValues().filter((value) => value.value !== value.name);
    if (renamed.length) throw new Error(`v1 enum ${type.name}: ${renamed.map((value) => `${value.name} stands for ${JSON.stringify(value.value)}`).join(', ')}; v1 leaves enum values as given, so each must be its own name`);
  }
}

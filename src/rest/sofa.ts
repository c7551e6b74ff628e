// SOFA maps each v1 route's GraphQL query field to its exact path and describes it in OpenAPI.
import { useSofa } from 'sofa-api';
import type { GraphQLSchema } from 'graphql';
import { filterSchema } from '@graphql-tools/utils';
import { isGraphOnly } from '../graphql/graph-only.js';
import { REST_ROUTES } from './routes.js';
import { buildOpenApiDocument, SCALAR_SCHEMAS } from './openapi.js';
import { SOFA_DEPTH_LIMIT } from './operations.js';

export const BASE_PATH = '/api/v1';

/**
 * The schema v1 executes: the graph without its graph-only fields (relations, node, viewer).
 * SOFA selects every field of a route's types, so this is what keeps v1's responses and its
 * OpenAPI document to their exact shape; resolvers are the graph's own.
 */
export function v1Schema(schema: GraphQLSchema): GraphQLSchema {
  return filterSchema({
    schema,
    rootFieldFilter: (_operation, _name, field) => !isGraphOnly(field.extensions),
    objectFieldFilter: (_type, _name, field) => !isGraphOnly(field.extensions),
  });
}

/** The OpenAPI document of v1: SOFA describes the routes of the v1 schema, openapi.ts completes it. */
export function v1OpenApiDocument(v1: GraphQLSchema, publicBaseUrl?: string) {
  const sofa = useSofa({
    basePath: BASE_PATH,
    schema: v1,
    depthLimit: SOFA_DEPTH_LIMIT,
    routes: Object.fromEntries(REST_ROUTES.map((route) => [`Query.${route.field}`, { method: 'GET', path: route.path, tags: [route.tag], description: route.summary }])),
    customScalars: SCALAR_SCHEMAS,
  });
  return buildOpenApiDocument(sofa.openAPIDocument as Record<string, any>, v1, publicBaseUrl);
}

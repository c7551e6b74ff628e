// The SOFA router of v1: each route maps one GraphQL query field to its exact path.
import { useSofa } from 'sofa-api';
import type { GraphQLSchema } from 'graphql';
import { filterSchema } from '@graphql-tools/utils';
import { isGraphOnly } from '../graphql/graph-only.js';
import { REST_ROUTES } from './routes.js';
import { buildOpenApiDocument, SCALAR_SCHEMAS } from './openapi.js';
import { compiledExecutor } from '../graphql/jit.js';

export const BASE_PATH = '/api/v1';

type SofaConfig = Parameters<typeof useSofa>[0];

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

export function createV1Router(schema: GraphQLSchema, options: Pick<SofaConfig, 'context' | 'errorHandler'> = {}) {
  return useSofa({
    basePath: BASE_PATH,
    schema,
    routes: Object.fromEntries(REST_ROUTES.map((route) => [`Query.${route.field}`, { method: 'GET', path: route.path, tags: [route.tag], description: route.summary }])),
    customScalars: SCALAR_SCHEMAS,
    execute: compiledExecutor(schema) as SofaConfig['execute'],
    ...options,
  });
}

export function v1OpenApiDocument(schema: GraphQLSchema, publicBaseUrl?: string) {
  const v1 = v1Schema(schema);
  return buildOpenApiDocument(createV1Router(v1).openAPIDocument as Record<string, any>, v1, publicBaseUrl);
}

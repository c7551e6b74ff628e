// The SOFA router of v1: each route maps one GraphQL query field to its exact path.
import { useSofa } from 'sofa-api';
import type { GraphQLSchema } from 'graphql';
import { REST_ROUTES } from './routes.js';
import { buildOpenApiDocument, SCALAR_SCHEMAS } from './openapi.js';
import { compiledExecutor } from '../graphql/jit.js';

export const BASE_PATH = '/api/v1';

type SofaConfig = Parameters<typeof useSofa>[0];

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
  return buildOpenApiDocument(createV1Router(schema).openAPIDocument as Record<string, any>, schema, publicBaseUrl);
}

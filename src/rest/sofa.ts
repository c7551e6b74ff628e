// SOFA describes each v1 route's GraphQL query field at its exact path in OpenAPI. Only the
// API documents need it: the handler imports this module on a document's first request.
import { useSofa } from 'sofa-api';
import type { OpenApiDocument } from './openapi-document.js';
import type { GraphQLSchema } from 'graphql';
import { REST_ROUTES } from './routes.js';
import { buildOpenApiDocument, SCALAR_SCHEMAS } from './openapi.js';
import { SOFA_DEPTH_LIMIT } from './operations.js';
import { BASE_PATH } from './v1-schema.js';

/** The OpenAPI document of v1, without servers: SOFA describes the routes of the v1 schema, openapi.ts completes it. */
export function v1OpenApiDocument(v1: GraphQLSchema) {
  const sofa = useSofa({
    basePath: BASE_PATH,
    schema: v1,
    depthLimit: SOFA_DEPTH_LIMIT,
    routes: Object.fromEntries(
      REST_ROUTES.map((route) => [
        `Query.${route.field}`,
        { method: 'GET', path: route.path, tags: [route.tag], description: route.summary },
      ]),
    ),
    customScalars: SCALAR_SCHEMAS,
  });
  return buildOpenApiDocument(sofa.openAPIDocument as OpenApiDocument, v1);
}

// The schema v1 executes, below its base path.
import type { GraphQLSchema } from 'graphql';
import { filterSchema } from '@graphql-tools/utils';
import { isGraphOnly } from '../graphql/graph-only.js';

export const BASE_PATH = '/api/v1';

/**
 * The graph without its graph-only fields (relations, node, viewer). A v1 route selects every
 * field of its types (rest/operations.ts), so this is what keeps v1's responses and its OpenAPI
 * document to their exact shape; resolvers are the graph's own.
 */
export function v1Schema(schema: GraphQLSchema): GraphQLSchema {
  return filterSchema({
    schema,
    rootFieldFilter: (_operation, _name, field) => !isGraphOnly(field.extensions),
    objectFieldFilter: (_type, _name, field) => !isGraphOnly(field.extensions),
  });
}

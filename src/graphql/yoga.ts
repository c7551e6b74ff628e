// /graphql for the web app and GraphiQL: the same schema, context and admission as v1.
import { createYoga, maskError } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { GraphQLSchema } from 'graphql';
import { isDatabaseUnavailable, unavailable } from '../errors/index.js';
import type { Admitted } from '../auth/admission.js';
import type { GraphQLContext } from './context.js';

export interface YogaDependencies {
  schema: GraphQLSchema;
  admit(request: Request): Promise<Admitted>;
  contextFor(admitted: Admitted, request: Request): GraphQLContext;
  production: boolean;
}

export function createGraphQLServer(deps: YogaDependencies) {
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema: deps.schema,
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'Signalboard GraphQL' },
    landingPage: false,
    batching: false,
    logging: false,
    context: async ({ request }) => deps.contextFor(await deps.admit(request), request),
    maskedErrors: {
      maskError: (error, message, isDev) => {
        const original = (error as { originalError?: unknown }).originalError ?? error;
        return isDatabaseUnavailable(original) ? unavailable() : maskError(error, message, isDev && !deps.production);
      },
    },
    plugins: [
      EnvelopArmorPlugin({
        // A client page (client → reports → data → charts → series → points → value, inline
        // fragment included) is 9 deep; the cost limit bounds what depth alone does not.
        maxDepth: { n: 10 },
        costLimit: { maxCost: 5000 },
        maxAliases: { n: 15 },
        maxDirectives: { n: 10 },
        maxTokens: { n: 2000 },
        blockFieldSuggestion: { enabled: deps.production },
      }),
    ],
  });
}

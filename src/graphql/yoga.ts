// /graphql for the web app and GraphiQL: the same schema, context and admission as v1.
import { createYoga, maskError } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { getOperationAST, type DocumentNode, type GraphQLSchema } from 'graphql';
import { isDatabaseUnavailable, unavailable } from '../errors/index.js';
import type { Admitted } from '../auth/index.js';
import { releaseContext, type GraphQLContext } from './context.js';
import { bearerToken } from '../auth/index.js';
import { graphiqlPage } from './graphiql.js';
import { textArgumentError } from './text-arguments.js';
import { trace } from '@opentelemetry/api';
import { tracing } from '../observability/tracing.js';
import { loadTrustedOperations, operationNames } from './trusted-operations.js';
import type { Metrics } from '../observability/metrics.js';

export interface YogaDependencies {
  schema: GraphQLSchema;
  admit(request: Request): Promise<Admitted>;
  contextFor(admitted: Admitted, requestId: string): GraphQLContext;
  production: boolean;
  /** A web-app session's request (cookie, no Authorization header): these need CSRF prevention. */
  isCookieAuthenticated(request: Request): boolean;
  /** The service's origin: the only one allowed to call with credentials (cookies). */
  publicOrigin: { readonly value: string };
  metrics: Pick<Metrics, 'graphqlOperation'>;
}

const DEFAULT_QUERY = `# The graph behind /api/v1.
# Paste your API key under Headers, then run.
{
  viewer { workspace { name plan } scopes }
  clients {
    data {
      id name
      reports { data { id name } }
      aiVisibilityProjects { data { id name metrics { data { totals { locale visibility shareOfVoice } } } } }
    }
  }
}
`;

const isApiKeyRequest = (request: Request) => bearerToken(request.headers.get('authorization')) !== null;

/** What travels with one /graphql request beside it: its id in, the admission's headers (rate limit) out. */
export interface GraphQLExchange {
  requestId: string;
  responseHeaders: Record<string, string>;
}

export function createGraphQLServer(deps: YogaDependencies) {
  const trusted = loadTrustedOperations();
  // Metrics name the web app's own operations; any other name a caller invents is "other".
  const knownOperations = operationNames(trusted);
  // Yoga's CSRF prevention (a GET or a form-encoded POST must carry x-graphql-yoga-csrf, so a
  // browser preflights it), for cookie-authenticated requests only: API keys are not ambient.
  const csrf = useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf'] });
  return createYoga<GraphQLExchange, GraphQLContext>({
    schema: deps.schema,
    graphqlEndpoint: '/graphql',
    graphiql: {
      title: 'Signalboard GraphQL',
      defaultQuery: DEFAULT_QUERY,
      // Paste an API key here; GraphiQL sends these headers with every request.
      headers: JSON.stringify({ Authorization: 'Bearer <your API key>' }, null, 2),
    },
    renderGraphiQL: graphiqlPage,
    landingPage: false,
    // Cookies only from our own pages; any other site may call with an API key (no credentials),
    // so Yoga's default of reflecting any Origin with credentials is replaced.
    cors: (request) => {
      const origin = request.headers.get('origin');
      return origin === deps.publicOrigin.value ? { origin, credentials: true } : { origin: '*', credentials: false };
    },
    batching: false,
    logging: false,
    context: async ({ request, requestId, responseHeaders }) => {
      const admitted = await deps.admit(request);
      Object.assign(responseHeaders, admitted.headers);
      return deps.contextFor(admitted, requestId);
    },
    maskedErrors: {
      maskError: (error, message, isDev) => {
        const original = (error as { originalError?: unknown }).originalError ?? error;
        return isDatabaseUnavailable(original) ? unavailable() : maskError(error, message, isDev && !deps.production);
      },
    },
    plugins: [
      { onRequestParse: (payload) => (deps.isCookieAuthenticated(payload.request) ? csrf.onRequestParse?.(payload) : undefined) },
      // The request's span names the GraphQL operation it ran; metrics count and time it; the
      // context is released when the execution is done (graphql/context.ts). Strings that break
      // the text rule stop the execution first (graphql/text-arguments.ts).
      {
        onExecute: ({ args, setResultAndStopExecution }: { args: { document: DocumentNode; operationName?: string | null; contextValue: GraphQLContext; variableValues?: Readonly<Record<string, unknown>> | null }; setResultAndStopExecution: (result: { errors: readonly Error[] }) => void }) => {
          const refused = textArgumentError(args.document, args.variableValues);
          if (refused) setResultAndStopExecution({ errors: [refused] });
          const name = getOperationAST(args.document, args.operationName)?.name?.value ?? 'anonymous';
          if (tracing.on) trace.getActiveSpan()?.setAttribute('graphql.operation.name', name);
          const started = performance.now();
          return {
            onExecuteDone: ({ result }: { result: unknown }) => {
              releaseContext(args.contextValue);
              const failed = Boolean((result as { errors?: readonly unknown[] } | null)?.errors?.length);
              deps.metrics.graphqlOperation(knownOperations.has(name) ? name : 'other', failed ? 'error' : 'ok', (performance.now() - started) / 1000);
            },
          };
        },
      },
      usePersistedOperations({
        getPersistedOperation: (hash) => trusted.get(hash) ?? null,
        // API keys may send any read query (under the limits below); in production everyone
        // else — the web app's session callers — runs only the trusted operations.
        allowArbitraryOperations: (request) => !deps.production || isApiKeyRequest(request),
      }),
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

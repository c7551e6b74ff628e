// /graphql for the web app and GraphiQL: the same schema, context and admission as v1.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createYoga, type Plugin } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import {
  getOperationAST,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationContext,
} from 'graphql';
import type { Logger } from 'pino';
import { graphqlFailure } from './boundary.js';
import { pathOverSize, responseTooLarge } from '../http/response-size.js';
import { defaultSizesCost, operationCost, queryTooComplex } from '../graphql/cost.js';
import type { Admitted } from '../auth/index.js';
import { releaseContext, type GraphQLContext } from '../graphql/context.js';
import { bearerToken } from '../auth/index.js';
import { graphiqlPageResponse } from '../graphql/graphiql.js';
import { wantsHtml } from '../http/html.js';
import { textArgumentError } from '../graphql/text-arguments.js';
import { parseWithinNesting } from '../graphql/document-nesting.js';
import { boundedErrors } from '../graphql/bounded-errors.js';
import { trace } from '@opentelemetry/api';
import { tracing } from '../observability/tracing.js';
import { isTrustedOperation, loadTrustedOperations, operationNames } from '../graphql/trusted-operations.js';
import type { Metrics } from '../observability/metrics.js';
import { refusalsPlugin, type RefusalSlot } from './graphql-refusals.js';
import { partialAnswersSucceed } from './graphql-statuses.js';
import { readOnlyOperations } from '../graphql/read-only.js';

export interface YogaDependencies {
  schema: GraphQLSchema;
  admit(request: Request): Promise<Admitted>;
  /** `signal`: the request's; its statements stop once its client went away. */
  contextFor(admitted: Admitted, requestId: string, signal?: AbortSignal): GraphQLContext;
  production: boolean;
  /** A web-app session's request (cookie, no Authorization header): these need CSRF prevention. */
  isCookieAuthenticated(request: Request): boolean;
  /** The service's origin: the only one allowed to call with credentials (cookies). */
  publicOrigin: { readonly value: string };
  metrics: Pick<Metrics, 'graphqlOperation'>;
  logger: Logger;
}

const DEFAULT_QUERY = `# The graph behind /api/v1.
# Paste your API key in the Headers tab below:
#   {"Authorization": "Bearer sgb_live_…"}
# then run. \`npm start\` prints a demo key;
# Settings → API keys makes more. Signed in to
# the web app here, your session works too.
{
  viewer { workspace { name plan } scopes }
  clients { data { id name reportCount } }
  aiVisibilityProjects { data { id name clientId metrics { data { totals { locale visibility shareOfVoice } } } } }
}
`;

const GRAPHIQL_OPTIONS = { title: 'Signalboard GraphQL', defaultQuery: DEFAULT_QUERY };

const isApiKeyRequest = (request: Request) => bearerToken(request.headers.get('authorization')) !== null;

interface ExecuteArgs {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  contextValue: GraphQLContext;
}

/**
 * What travels with one /graphql request beside it: its id in; out, the admission's headers (rate
 * limit) and a refusal made before GraphQL ran (doors/graphql-refusals.ts).
 */
export interface GraphQLExchange extends RefusalSlot {
  requestId: string;
}

// The request's span names the GraphQL operation it ran; metrics count and time it; the
// context is released when the execution is done (graphql/context.ts). Before it runs,
// strings that break the text rule (graphql/text-arguments.ts) and a cost over the limit,
// counted with its variables (graphql/cost.ts), stop it; after, its answer is held to the
// byte cap (http/response-size.ts).
function executionPlugin(deps: YogaDependencies, trusted: ReturnType<typeof loadTrustedOperations>) {
  // Metrics name the web app's own operations; any other name a caller invents is "other".
  const knownOperations = operationNames(trusted);
  const trustedTexts = new Set(trusted.values());
  /**
   * query_too_complex when the operation costs more than the limit and is not a trusted operation within its own
   * default sizes (graphql/cost.ts).
   */
  const costRefusal = (args: ExecuteArgs) => {
    const limit = args.contextValue.config.GRAPHQL_MAX_COST;
    const cost = operationCost(args.schema, args.document, args.operationName, args.variableValues, args.contextValue);
    if (cost <= limit) return null;
    const trustedWithin =
      isTrustedOperation(trustedTexts, args.document, args.operationName) &&
      cost <= defaultSizesCost(args.schema, args.document, args.operationName, args.variableValues, args.contextValue);
    return trustedWithin ? null : queryTooComplex(cost, limit);
  };
  return {
    onExecute: ({
      args,
      setResultAndStopExecution,
    }: {
      args: ExecuteArgs;
      setResultAndStopExecution(result: ExecutionResult): void;
    }) => {
      const { config } = args.contextValue;
      const refused = textArgumentError(args.document, args.variableValues) ?? costRefusal(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
      const name = getOperationAST(args.document, args.operationName)?.name?.value ?? 'anonymous';
      if (tracing.on) trace.getActiveSpan()?.setAttribute('graphql.operation.name', name);
      const started = performance.now();
      return {
        onExecuteDone: ({ result, setResult }: { result: unknown; setResult(result: ExecutionResult): void }) => {
          releaseContext(args.contextValue);
          const over = pathOverSize(result, config.RESPONSE_MAX_BYTES);
          if (over !== null)
            setResult({
              data: null,
              errors: [responseTooLarge(config.RESPONSE_MAX_BYTES, over.replace(/^data\./, ''))],
            });
          const failed = over !== null || Boolean((result as { errors?: readonly unknown[] } | null)?.errors?.length);
          deps.metrics.graphqlOperation(
            knownOperations.has(name) ? name : 'other',
            failed ? 'error' : 'ok',
            (performance.now() - started) / 1000,
          );
        },
      };
    },
  };
}

/**
 * An armor limit a document passes is reported as a validation error (its code, and a 400 under
 * graphql-response+json) rather than thrown out of validation, which left it a 200 without a code.
 */
const REPORTED = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/** Limits on what may run at all: trusted operations for sessions in production, the armor, nesting, small errors. */
function guardPlugins(deps: YogaDependencies, trusted: ReturnType<typeof loadTrustedOperations>): Plugin[] {
  return [
    usePersistedOperations({
      getPersistedOperation: (hash) => trusted.get(hash) ?? null,
      // API keys may send any read query (under the limits below); in production everyone
      // else — the web app's session callers — runs only the trusted operations.
      allowArbitraryOperations: (request) => !deps.production || isApiKeyRequest(request),
    }),
    EnvelopArmorPlugin({
      // A client page (client → reports → data → charts → series → points → value, inline
      // fragment included) is 9 deep; the cost limit (above, with the variables) bounds what
      // depth alone does not. Armor's own cost limit read only the document.
      maxDepth: { n: 10, ...REPORTED },
      costLimit: { enabled: false },
      maxAliases: { n: 15, ...REPORTED },
      maxDirectives: { n: 10, ...REPORTED },
      maxTokens: { n: 2000 },
      blockFieldSuggestion: { enabled: deps.production },
    }),
    { onValidate: ({ addValidationRule }) => addValidationRule(readOnlyOperations) } satisfies Plugin,
    // After the armor: its token-counting parser is the one that overflowed (graphql/document-nesting.ts).
    { onParse: ({ parseFn, setParseFn }) => setParseFn(parseWithinNesting(parseFn)) } satisfies Plugin,
    // Whatever failed — parsing, validation, variables, execution — its errors are small
    // (graphql/bounded-errors.ts).
    {
      onResultProcess: ({ result, setResult }) => {
        if (Array.isArray(result) || !result || Symbol.asyncIterator in result || !result.errors?.length) return;
        const errors = boundedErrors(result.errors);
        if (errors !== result.errors) setResult({ ...result, errors });
      },
    } satisfies Plugin,
  ];
}

export function createGraphQLServer(deps: YogaDependencies) {
  // The request's exchange while Yoga handles it: its error masking is told the error, not the request.
  const exchanges = new AsyncLocalStorage<GraphQLExchange>();
  const trusted = loadTrustedOperations();
  // Yoga's CSRF prevention (a GET or a form-encoded POST must carry x-graphql-yoga-csrf, so a
  // browser preflights it), for cookie-authenticated requests only: API keys are not ambient.
  const csrf = useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf'] }) as Plugin;
  const yoga = createYoga<GraphQLExchange, GraphQLContext>({
    schema: deps.schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL is served beside Yoga (below): Yoga's page would be made and sent uncompressed per request.
    graphiql: false,
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
      return deps.contextFor(admitted, requestId, request.signal);
    },
    // Anything else — a resolver's bug, a result that could not be serialized — is mapped as every
    // door maps it (a lost database 503, else a logged 500). Yoga's own logging is off.
    maskedErrors: {
      maskError: (error) =>
        graphqlFailure(error, {
          requestId: exchanges.getStore()?.requestId ?? '',
          logger: deps.logger,
          what: 'graphql request failed',
        }),
    },
    plugins: [
      refusalsPlugin(() => exchanges.getStore(), deps.isCookieAuthenticated, csrf),
      executionPlugin(deps, trusted),
      ...guardPlugins(deps, trusted),
      partialAnswersSucceed,
    ],
  });
  return {
    fetch: (request: Request, exchange: GraphQLExchange) =>
      // A browser opening /graphql gets GraphiQL; the page carries the schema (public, as
      // graphql/schema.graphql and the OpenAPI document are), so the Docs pane and completion
      // work before a key is pasted and nothing is sent on open: without a key that is a 401.
      request.method === 'GET' && wantsHtml(request)
        ? graphiqlPageResponse(request, GRAPHIQL_OPTIONS, deps.schema)
        : exchanges.run(exchange, () => yoga.fetch(request, exchange)),
  };
}

// What Yoga refuses on its own before GraphQL runs — a body it has no parser for, a body that does
// not parse, a cookie request without the CSRF header, an Accept it cannot answer — it answers in
// shapes of its own: an empty 415 or 406, a 400 whose error quotes the JSON parser (and so the
// body), a 403 without code or request id. Each is recorded on the request's exchange as the
// ApiError it is, and the door throws it: the envelope every other refusal of /graphql has.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ApiError, type ErrorCode } from '../errors/index.js';
import { Response } from '../http/responses.js';

/** Where a refusal travels from Yoga's hooks to the door: the request's exchange, with the admission's headers. */
export interface RefusalSlot {
  refusal?: ApiError;
  responseHeaders: Record<string, string>;
}

type Refusal = [code: ErrorCode, message: string];

/** The most of a Content-Type a refusal quotes. */
const QUOTED_TYPE_CHARS = 60;

function unreadableType(type: string | null): Refusal {
  const named = type ? `this one is ${type.split(';')[0]!.trim().slice(0, QUOTED_TYPE_CHARS)}` : 'this one has none';
  return ['invalid_body', `Send the body as application/json; ${named}.`];
}

/**
 * Yoga's parsers fail with a 4xx GraphQLError; its JSON parser's carries the parser's message
 * (which quotes the body) in extensions.originalError. Neither is passed on.
 */
function unparsedBody(error: unknown): Refusal {
  const status = (error as GraphQLError).extensions?.http?.status ?? 500;
  if (!(error instanceof GraphQLError) || error instanceof ApiError || status >= 500) throw error;
  return 'originalError' in error.extensions
    ? ['invalid_body', 'The body is not valid JSON.']
    : ['invalid_body', 'The body must be a JSON object with a query.'];
}

/**
 * What parsed but is no one operation: a batch (an array), a body with neither a query string nor
 * a trusted operation's hash (`{}`, `{"query": 1}`; Yoga answered `{}` with a 200 asking for a
 * persisted-query id), a GET without the `query` parameter.
 */
function notOneOperation(request: Request, params: unknown): Refusal | null {
  if (Array.isArray(params)) return ['invalid_body', 'Send one operation per request; batches are not taken.'];
  const { query, extensions } = (params ?? {}) as { query?: unknown; extensions?: { persistedQuery?: unknown } };
  // A trusted operation is named by its hash instead (doors/graphql.ts, usePersistedOperations).
  if (typeof query === 'string' || extensions?.persistedQuery) return null;
  return request.method === 'GET'
    ? ['invalid_parameter', 'Give the operation in the query parameter.']
    : ['invalid_body', 'The body must be a JSON object with a query.'];
}

const CSRF_REFUSAL: Refusal = [
  'forbidden',
  'A request signed in with a cookie must carry the x-graphql-yoga-csrf header or be sent as application/json.',
];

/**
 * The plugin that records those refusals. `csrf` is Yoga's CSRF check, asked only for
 * cookie-authenticated requests (`needsCsrf`): API keys are not ambient credentials.
 */
export function refusalsPlugin(
  slot: () => RefusalSlot | undefined,
  needsCsrf: (request: Request) => boolean,
  csrf: Plugin,
): Plugin {
  /** An empty answer of the refusal's status; the door throws the refusal in its place. */
  const refuse = ([code, message]: Refusal) => {
    const exchange = slot();
    const error = new ApiError(code, message, { headers: exchange?.responseHeaders ?? {} });
    if (exchange) exchange.refusal = error;
    return new Response(null, { status: error.status });
  };
  return {
    onRequestParse: (payload) => {
      const { request, requestParser, setRequestParser, endResponse } = payload;
      if (needsCsrf(request)) {
        try {
          void csrf.onRequestParse?.(payload);
        } catch {
          return endResponse(refuse(CSRF_REFUSAL));
        }
      }
      if (!requestParser) return endResponse(refuse(unreadableType(request.headers.get('content-type'))));
      setRequestParser(async (parsed) => {
        let params;
        try {
          params = await requestParser(parsed);
        } catch (error) {
          return refuse(unparsedBody(error));
        }
        const refusal = notOneOperation(request, params);
        return refusal ? refuse(refusal) : params;
      });
    },
    onResultProcess: ({ resultProcessor, acceptableMediaTypes }) => {
      if (resultProcessor) return;
      const sent = [...new Set(acceptableMediaTypes)].join(', ');
      refuse(['not_acceptable', `/graphql answers ${sent}; the Accept header allows none of them.`]);
    },
  };
}

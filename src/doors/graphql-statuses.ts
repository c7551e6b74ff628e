// The HTTP status of a /graphql answer with errors: Yoga gives it the highest status its errors
// carry (extensions.http.status); an answer that carries data is a success unless a server error
// is among them.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** The HTTP status an error would give its answer (extensions.http.status), if any. */
const statusOf = (error: GraphQLError) => (error.extensions.http as { status?: number } | undefined)?.status;

/** `error` without the HTTP status it would give its answer; its code and headers (Retry-After) stay. */
const withoutStatus = (error: GraphQLError): GraphQLError => {
  if (statusOf(error) === undefined) return error;
  const http = error.extensions.http as Record<string, unknown>;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, http: { ...http, status: undefined } },
  });
};

/**
 * An answer that carries data is 200 when what failed is the caller's (GraphQL over HTTP: a partial
 * answer is a success with errors beside it). A field the key's scopes do not cover comes back null
 * with its `insufficient_scope` error next to the fields that could be read; given as a 403, client
 * libraries dropped the data with the status. A server error keeps its status even beside data (a
 * lost database is 503, whichever field found it), so an outage never reads as an empty answer.
 * An answer without data keeps its errors' status.
 */
export const partialAnswersSucceed: Plugin = {
  onResultProcess: ({ result, setResult }) => {
    if (Array.isArray(result) || !result || Symbol.asyncIterator in result) return;
    if (result.data == null || !result.errors?.length) return;
    if (result.errors.some((error) => (statusOf(error) ?? 0) >= 500)) return;
    setResult({ ...result, errors: result.errors.map(withoutStatus) });
  },
};

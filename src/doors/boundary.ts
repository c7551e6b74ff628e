// The one boundary between a door and whatever went wrong behind it. Any thrown value becomes the
// ApiError a caller sees (`toApiError`: a refusal as it is, a UsageError by its reason, a lost
// database 503, anything else a 500 whose cause is logged here, once, with the request id), and
// then the shape of the door that answers: the JSON envelope (v1, ingest, the web app's JSON
// twins), an HTML page (the web app's pages), a GraphQL error (/graphql), an MCP tool error, or
// an OAuth error body (the authorization server's endpoints).
import { GraphQLError } from 'graphql';
import { ApiError, toApiError } from '../errors/index.js';
import { html, htmlResponse, page, wantsHtml } from '../http/html.js';
import { errorBody, errorResponse, JSON_CONTENT_TYPE, Response } from '../http/responses.js';

export { errorBody, errorResponse };

/** Where a failure happened: the request's id, and the log a fault is recorded in. */
export interface FailureSite {
  requestId: string;
  logger: { error(fields: object, message: string): void };
  /** The log line's message ("request failed", "ingest failed", …). */
  what: string;
  /** Fields logged beside the error and the request id (an MCP tool's name). */
  fields?: Record<string, unknown>;
}

/** nginx's status for a request whose client closed the connection first: kept apart from 5xx in logs and metrics. */
export const CLIENT_CLOSED_REQUEST = 499;

/** The ApiError a caller sees for `thrown`; a fault is logged once, with the request id. */
export function apiErrorOf(
  thrown: unknown,
  site: FailureSite,
  invalid?: 'invalid_body' | 'invalid_parameter',
): ApiError {
  const log = (cause: unknown) =>
    site.logger.error({ err: cause, requestId: site.requestId, ...site.fields }, site.what);
  return toApiError(thrown, log, invalid);
}

/** The JSON envelope of v1, ingest and the web app's JSON twins; `headers` (rate limits) go along. */
export const jsonFailure = (
  thrown: unknown,
  site: FailureSite,
  headers: Record<string, string> = {},
  details?: Record<string, unknown>,
): Response => errorResponse(apiErrorOf(thrown, site), site.requestId, headers, details);

/**
 * The web app's answer: a small page for browsers, the envelope for API clients. The page
 * offers a way on by `signedIn` (the request carries a session cookie): the settings, or signing in.
 */
export function pageFailure(request: Request, thrown: unknown, site: FailureSite, signedIn: boolean): Response {
  const error = apiErrorOf(thrown, site);
  if (!wantsHtml(request)) return errorResponse(error, site.requestId);
  const title = error.status === 403 ? 'Not allowed' : error.status === 404 ? 'Not found' : 'That did not work';
  const onward =
    signedIn && error.status !== 401
      ? html`<a href="/app/settings">Back to settings</a>`
      : html`<a href="/app/login">Sign in</a>`;
  const body = html`<section>
    <h1>${title}</h1>
    <p>${error.message}</p>
    <p>${onward} · <a href="/">Home</a></p>
    <p class="muted">Request ${site.requestId}</p>
  </section>`;
  return htmlResponse(page('Error', body), error.status, error.headers);
}

/**
 * An error of our own making (an ApiError, also inside a located error; a validation error): it leaves as it is, with
 * its path.
 */
const isOwnError = (error: unknown): error is GraphQLError =>
  error instanceof GraphQLError && (!error.originalError || isOwnError(error.originalError));

/** /graphql's error: ours as it is (with its path), anything else as `apiErrorOf` makes it (extensions.code). */
export const graphqlFailure = (thrown: unknown, site: FailureSite): GraphQLError =>
  isOwnError(thrown) ? thrown : apiErrorOf(thrown, site);

/** An MCP tool's error result: the envelope without a request id, as the tool's one text block. */
export interface ToolFailure {
  [key: string]: unknown;
  content: [{ type: 'text'; text: string }];
  isError: true;
}

export const toolErrorResult = (error: ApiError): ToolFailure => ({
  content: [
    {
      type: 'text',
      text: JSON.stringify({
        error: { code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) },
      }),
    },
  ],
  isError: true,
});

/** What a tool call that threw answers: bad input is a parameter here (the tool's arguments). */
export const toolFailure = (thrown: unknown, site: FailureSite): ToolFailure =>
  toolErrorResult(apiErrorOf(thrown, site, 'invalid_parameter'));

/**
 * An answer written on a node:http response (the OAuth server is a Koa app): `res.writeHead(status,
 * headers).end(body)`.
 */
export interface NodeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An OAuth endpoint's error (RFC 6749 §5.2, RFC 7591 §3.2.2): `{ error, error_description }`, never cached. */
export const oauthFailure = (
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): NodeAnswer => ({
  status,
  headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers },
  body: JSON.stringify({ error, error_description: description }),
});

/** The JSON envelope for a node:http door (the OAuth server's own paths), with the request's id. */
export const nodeFailure = (thrown: unknown, site: FailureSite): NodeAnswer => {
  const error = apiErrorOf(thrown, site);
  return {
    status: error.status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...error.headers },
    body: errorBody(error, site.requestId),
  };
};

/** How a door answers a failure: the table of doors (doors/routes.ts) names one per door. */
export type FailureShape = 'json' | 'page';

/**
 * The answer for a failure at an HTTP door, in its shape. A client that went away (or was cut
 * for not reading) reads nothing: a fault then is no server error, and is not logged.
 */
export function failureResponse(
  shape: FailureShape,
  request: Request,
  thrown: unknown,
  site: FailureSite,
  signedIn: () => boolean,
): Response {
  if (request.signal.aborted && !(thrown instanceof ApiError))
    return new Response(null, { status: CLIENT_CLOSED_REQUEST });
  return shape === 'page' ? pageFailure(request, thrown, site, signedIn()) : jsonFailure(thrown, site);
}

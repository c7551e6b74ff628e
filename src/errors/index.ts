// One error type for everything a caller may see. `code` and `status` come from the
// contract's table; GraphQL exposes them as extensions.code and extensions.http.status.
import { GraphQLError } from 'graphql';

export type ErrorCode =
  | 'invalid_parameter'
  | 'bad_request'
  | 'invalid_body'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'query_too_complex'
  | 'response_too_large'
  | 'request_timeout'
  | 'request_header_fields_too_large'
  | 'unauthenticated'
  | 'api_key_revoked'
  | 'api_key_expired'
  | 'plan_required'
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'expectation_failed'
  | 'misdirected_request'
  | 'rate_limited'
  | 'internal_error'
  | 'unavailable';

const statusByCode: Record<ErrorCode, number> = {
  invalid_parameter: 400,
  bad_request: 400,
  invalid_body: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  query_too_complex: 400,
  response_too_large: 400,
  request_timeout: 408,
  request_header_fields_too_large: 431,
  unauthenticated: 401,
  api_key_revoked: 401,
  api_key_expired: 401,
  plan_required: 403,
  insufficient_scope: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  method_not_allowed: 405,
  not_acceptable: 406,
  expectation_failed: 417,
  misdirected_request: 421,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
};

/** The most characters of an error's message and of its param: whatever a caller sent, an error stays a few words. */
export const ERROR_TEXT_LIMITS = { message: 1000, param: 200 } as const;

/** `text` cut to at most `max` characters, ending in "…" when cut (never between a surrogate pair's halves). */
export function clippedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 2] ?? '') ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

export interface ApiErrorOptions {
  param?: string;
  headers?: Record<string, string>;
}

export class ApiError extends GraphQLError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, rawMessage: string, options: ApiErrorOptions = {}) {
    const status = statusByCode[code];
    // Messages and params may quote what the caller sent (a name, a value): clipped here, every
    // door's envelope (v1, GraphQL's extensions, MCP's tool results) is bounded at once.
    const message = clippedText(rawMessage, ERROR_TEXT_LIMITS.message);
    const param = options.param === undefined ? undefined : clippedText(options.param, ERROR_TEXT_LIMITS.param);
    // An ApiError is an answer, not a fault: its stack is never read (a 500's cause is logged with
    // its own), and capturing one was half the cost of a refusal — a flood of 429s paid it each time.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message, {
        extensions: {
          code,
          ...(param ? { param } : {}),
          http: { status, ...(options.headers ? { headers: options.headers } : {}) },
        },
      });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.code = code;
    this.status = status;
    this.param = param;
    this.headers = options.headers ?? {};
  }
}

export const invalidParameter = (param: string, message: string) =>
  new ApiError('invalid_parameter', message, { param });

/**
 * The bounds of an integer argument, declared once: the GraphQL argument carries them
 * (graphql/bounded-int.ts: its default and `extensions.bounds`, which the OpenAPI document
 * reads) and `withinBounds` checks a value against the same object.
 */
export interface IntBounds {
  readonly minimum: number;
  readonly maximum: number;
  readonly default: number;
}

export const intBounds = (minimum: number, maximum: number, fallback: number): IntBounds =>
  Object.freeze({ minimum, maximum, default: fallback });

/** The argument's default when absent, else a whole number within its bounds (400 naming `param` otherwise). */
export function withinBounds(value: number | null | undefined, bounds: IntBounds, param = 'limit'): number {
  const chosen = value ?? bounds.default;
  if (!Number.isInteger(chosen) || chosen < bounds.minimum || chosen > bounds.maximum) {
    throw invalidParameter(param, `${param} must be a whole number from ${bounds.minimum} to ${bounds.maximum}.`);
  }
  return chosen;
}

export const notFound = (what = 'resource') => new ApiError('not_found', `No such ${what}.`);

export const unavailable = () =>
  new ApiError('unavailable', 'The service is temporarily unavailable. Retry shortly.', {
    headers: { 'Retry-After': '2' },
  });

export const internalError = () =>
  new ApiError('internal_error', 'An unexpected error occurred. It has been logged with the request id.');

/**
 * Failures of pg/Prisma that mean "the database cannot answer right now": a lost or refused connection, or a statement
 * it cancelled (57014, the pools' statement_timeout).
 */
/** What pg and Prisma say when the database went away or is not there yet. */
const LOST_DATABASE_MESSAGES = [
  /Connection terminated/i,
  /connect ECONNREFUSED/i,
  /timeout exceeded when trying to connect/i,
  /Can't reach database/i,
  /the database system is (starting up|shutting down)/i,
  /Client has encountered a connection error/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (
      typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57014|57P01|57P02|57P03|08\d{3}|P1001|P1017)$/.test(code)
    ) {
      return true;
    }
    if (typeof message === 'string' && LOST_DATABASE_MESSAGES.some((pattern) => pattern.test(message))) {
      return true;
    }
    if (
      name === 'DriverAdapterError' &&
      typeof (current as { cause?: { kind?: string } }).cause?.kind === 'string' &&
      /Connection|Closed|Socket/i.test((current as { cause: { kind: string } }).cause.kind)
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause ?? (current as { originalError?: unknown }).originalError;
  }
  return false;
}

/** One error or an execution's list, and what each wraps (a GraphQL error's original error). */
function reported(thrown: unknown) {
  const errors = Array.isArray(thrown) ? (thrown as unknown[]) : [thrown];
  const originals = errors.map((error) => (error as { originalError?: unknown } | null)?.originalError ?? error);
  return { errors, originals };
}

/**
 * What a caller did wrong, told back to them: an ApiError as it is (also inside a GraphQL
 * error), a use case's refusal (UsageError) mapped by its reason; null for anything else (a fault).
 * Bad input is a body for HTTP forms and a parameter for tool arguments (`invalid`).
 */
export function refusalOf(thrown: unknown, invalid: InvalidInput = 'invalid_body'): ApiError | null {
  const { errors, originals } = reported(thrown);
  const known = [...originals, ...errors].find((error): error is ApiError => error instanceof ApiError);
  if (known) return known;
  const refused = originals.find((error): error is UsageError => error instanceof UsageError);
  return refused ? fromUsageError(refused, invalid) : null;
}

/**
 * The one error a caller sees for anything thrown or reported: a refusal as `refusalOf` tells
 * it, a lost database connection or a cancelled statement as 503, and everything else as a
 * generic 500 after `log` has recorded it. Accepts one error or an execution's error list.
 */
export function toApiError(thrown: unknown, log: (error: unknown) => void, invalid?: InvalidInput): ApiError {
  const refusal = refusalOf(thrown, invalid);
  if (refusal) return refusal;
  const { errors, originals } = reported(thrown);
  if (originals.some(isDatabaseUnavailable)) return unavailable();
  for (const error of errors) log(error);
  return internalError();
}

/**
 * A use case refused: bad input ('invalid'), not allowed, not on the workspace's plan, unknown, or in conflict with
 * existing data. The CLI prints it; HTTP maps the reason to a status.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly reason: 'invalid' | 'forbidden' | 'plan_required' | 'not_found' | 'conflict' = 'invalid',
  ) {
    super(message);
  }
}

const USAGE_ERROR_CODES: Record<UsageError['reason'], ErrorCode> = {
  invalid: 'invalid_body',
  forbidden: 'forbidden',
  plan_required: 'plan_required',
  not_found: 'not_found',
  conflict: 'conflict',
};

type InvalidInput = 'invalid_body' | 'invalid_parameter';

/** A use case's refusal as the API error a caller sees (`refusalOf` is the one caller beside MCP's tools). */
export const fromUsageError = (error: UsageError, invalid: InvalidInput = 'invalid_body') =>
  new ApiError(error.reason === 'invalid' ? invalid : USAGE_ERROR_CODES[error.reason], error.message);

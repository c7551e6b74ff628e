// The components every v1 operation refers to: the bearer scheme, the response headers, the
// error body and one error response per status.
type JsonSchema = Record<string, unknown>;

export const ERROR_RESPONSES: Record<string, { description: string; codes: string[] }> = {
  '400': {
    description:
      'A parameter is malformed or not allowed (error.param names it), the path itself is malformed (bad_request), ' +
      'or the answer (or the answers it reads) would pass the byte cap (response_too_large: ask for fewer).',
    codes: ['invalid_parameter', 'bad_request', 'response_too_large'],
  },
  '401': {
    description: 'No valid API key: missing, malformed, unknown, revoked or expired.',
    codes: ['unauthenticated', 'api_key_revoked', 'api_key_expired'],
  },
  '403': {
    description: "The plan or the key's scopes do not allow the call.",
    codes: ['plan_required', 'insufficient_scope'],
  },
  '404': { description: 'No such path or resource in this workspace.', codes: ['not_found'] },
  '406': {
    description: 'The Accept header allows neither JSON nor, where the data is also exported, its CSV or NDJSON.',
    codes: ['not_acceptable'],
  },
  '429': {
    description:
      "The key's or the workspace's rate limit is exhausted, or the workspace's waiting line is full or a request " +
      'waited in it too long (8 in flight and 256 waiting per instance by default, 10 s at most); ' +
      'retry after Retry-After seconds.',
    codes: ['rate_limited'],
  },
  '500': {
    description: 'Unexpected server error; the message is generic and the request id is logged.',
    codes: ['internal_error'],
  },
  '503': { description: 'The database is unreachable; retry after Retry-After seconds.', codes: ['unavailable'] },
};

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sgb_live_<key_id>.<secret>',
    description: 'An API key of one workspace.',
  },
};

const HEADERS = {
  'X-Request-Id': { description: 'Identifies the request in the server logs.', schema: { type: 'string' } },
  RateLimit: {
    description: 'Remaining tokens and seconds until the bucket is full: "burst";r=<remaining>;t=<seconds>.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'The key\'s bucket: "burst";q=<capacity>;w=<seconds to refill>.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Whole seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
  ETag: {
    description: 'Strong validator of the body; send it as If-None-Match to revalidate.',
    schema: { type: 'string' },
  },
  'Content-Disposition': { description: 'attachment, with a file name for the export.', schema: { type: 'string' } },
};

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'requestId'],
      properties: {
        code: { type: 'string', description: 'Stable machine-readable code.' },
        message: { type: 'string', description: 'A human sentence; may change.' },
        param: { type: 'string', description: 'The parameter at fault, for invalid_parameter.' },
        requestId: { type: 'string', description: 'The X-Request-Id of the request: quote it when asking for help.' },
      },
    },
  },
};
/**
 * Fresh copies of the shared components, and the Error schema added to `schemas`. In this order in
 * the document: security schemes, headers, responses.
 */
export function sharedComponents(schemas: Record<string, JsonSchema>) {
  const securitySchemes = structuredClone(SECURITY_SCHEMES);
  const headers = structuredClone(HEADERS);
  schemas.Error = structuredClone(ERROR_SCHEMA);
  const responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { description, codes }]) => [
      `Error${status}`,
      {
        description: `${description} Codes: ${codes.join(', ')}.`,
        headers: {
          'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
          ...(status === '429' || status === '503'
            ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
            : {}),
        },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
  return { securitySchemes, headers, responses };
}

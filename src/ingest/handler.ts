// POST /internal/ingest/{metrics,scans} for the platform's collectors, behind a service
// token (INGEST_TOKEN). Without a configured token the endpoint does not exist.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Database } from '../db/client.js';
import { ApiError, toApiError } from '../errors/index.js';
import { bearerChallenge, bearerToken } from '../auth/index.js';
import { errorResponse, jsonResponse } from '../http/responses.js';
import { readBody } from '../http/body.js';
import { ingest, type IngestKind } from './service.js';

const MAX_BODY_BYTES = 64 * 1024 * 1024;
const digest = (value: string) => createHash('sha256').update(value).digest();

export function createIngestHandler(deps: { config: Config; database: Database; logger: Logger }) {
  const expected = deps.config.INGEST_TOKEN ? digest(deps.config.INGEST_TOKEN) : null;
  return async function handleIngest(request: Request, url: URL, requestId: string): Promise<Response> {
    const kind = url.pathname.slice('/internal/ingest/'.length);
    if (kind !== 'metrics' && kind !== 'scans') return errorResponse(new ApiError('not_found', 'No such path.'), requestId);
    // Still a 404 (nothing here answers), but one that tells an operator why.
    if (!expected) return errorResponse(new ApiError('not_found', 'Ingestion is switched off on this instance: start it with INGEST_TOKEN set.'), requestId);
    if (request.method !== 'POST') return errorResponse(new ApiError('method_not_allowed', 'Use POST.'), requestId, { Allow: 'POST' });
    const token = bearerToken(request.headers.get('authorization'));
    if (!token || !timingSafeEqual(digest(token), expected)) return errorResponse(new ApiError('unauthenticated', 'Send the ingest service token as a bearer token.', { headers: bearerChallenge(token ? 'invalid_token' : undefined) }), requestId);
    const skipInvalid = url.searchParams.get('skipInvalid') === 'true';
    try {
      const body = await readBody(request, MAX_BODY_BYTES);
      const summary = await ingest(deps.database.pool, kind as IngestKind, body, { skipInvalid });
      // Without skipInvalid, any bad line means nothing was written.
      if (summary.problems.length && !skipInvalid) {
        return jsonResponse({ error: { code: 'invalid_body', message: `${summary.rejected} line(s) are invalid; nothing was imported.`, requestId, lines: summary.problems.slice(0, 1000) } }, 400);
      }
      return jsonResponse({ data: summary, meta: {} });
    } catch (error) {
      return errorResponse(toApiError(error, (cause) => deps.logger.error({ err: cause, requestId }, 'ingest failed')), requestId);
    }
  };
}

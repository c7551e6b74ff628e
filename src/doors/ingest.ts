// POST /internal/ingest/{metrics,scans} for the platform's collectors, behind a service
// token (INGEST_TOKEN). Without a configured token the endpoint does not exist. The body is
// validated as it arrives (service.ts), within the instance's and each workspace's share of
// ingests at once (shares.ts).
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Database } from '../db/client.js';
import { ApiError } from '../errors/index.js';
import { queryBoolean } from '../rest/index.js';
import { jsonFailure } from './boundary.js';
import { bearerChallenge, bearerToken } from '../auth/index.js';
import { errorResponse, jsonResponse } from '../http/responses.js';
import { bodyChunks, readAhead } from '../http/body.js';
import { createIngestShares, ingest, UnnamedBody, type IngestKind } from '../ingest/index.js';

const MAX_BODY_BYTES = 64 * 1024 * 1024;
// Until a body names its workspace it holds one of the instance's few ingests without counting against any
// workspace's share: four bodies sent a byte a second held every one for 30 s. Past INGEST_NAMING_SECONDS such a body
// must have arrived at this rate on average, which a collector's first line of 60 MB on a slow uplink keeps and a
// trickle does not.
const UNNAMED_MIN_BYTES_PER_SECOND = 64 * 1024;
/** How often an unnamed body that sends nothing is looked at. */
const UNNAMED_CHECK_MS = 1_000;

const unnamedTooSlow = (seconds: number) =>
  new ApiError(
    'request_timeout',
    `The body has named no project or client after ${seconds} s (its first line not complete) and arrives at under ` +
      `${UNNAMED_MIN_BYTES_PER_SECOND / 1024} KB/s; nothing was imported.`,
    // The rest of the body is not read: the connection ends with the answer.
    { headers: { Connection: 'close' } },
  );

/**
 * `chunks` as they come; while `named()` is false, refused once `graceSeconds` have passed and the body arrived at
 * under UNNAMED_MIN_BYTES_PER_SECOND on average, checked at every chunk and every second without one.
 */
async function* namedOrArriving(
  chunks: AsyncIterable<Uint8Array>,
  named: () => boolean,
  graceSeconds: number,
): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const started = performance.now();
  let received = 0;
  const tooSlow = () => {
    const seconds = (performance.now() - started) / 1000;
    return !named() && seconds >= graceSeconds && received < seconds * UNNAMED_MIN_BYTES_PER_SECOND;
  };
  let timer: NodeJS.Timeout | undefined;
  const tick = () => new Promise<'tick'>((resolve) => (timer = setTimeout(() => resolve('tick'), UNNAMED_CHECK_MS)));
  try {
    for (;;) {
      const next = iterator.next();
      let result: IteratorResult<Uint8Array> | 'tick';
      // The same pending read is raced with each tick until it settles: a tick never asks for a second chunk.
      while ((result = named() ? await next : await Promise.race([next, tick()])) === 'tick')
        if (tooSlow()) throw unnamedTooSlow(graceSeconds);
      clearTimeout(timer);
      if (result.done) return;
      received += result.value.byteLength;
      if (tooSlow()) throw unnamedTooSlow(graceSeconds);
      yield result.value;
    }
  } finally {
    clearTimeout(timer);
    void iterator.return?.();
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** How much of a parameter's name an error repeats. */
const SHOWN_NAME_MAX_CHARS = 64;
// Cut by characters, not UTF-16 units: half an emoji is a lone surrogate, which strict JSON readers refuse.
const cutName = (name: string) => {
  const characters = Array.from(name);
  return characters.length > SHOWN_NAME_MAX_CHARS ? `${characters.slice(0, SHOWN_NAME_MAX_CHARS).join('')}…` : name;
};
/** A parameter's name as an error names it: a long one cut, an empty one said so. */
const shownName = (name: string) => (name ? JSON.stringify(cutName(name)) : 'A parameter without a name');

/**
 * The one query parameter ingestion takes. An empty value is no value, as in v1; `yes` or `1` is
 * refused (read as false, it imported nothing). Unlike v1's reads, which ignore a parameter they do
 * not take, this write refuses one before reading the body: ignored, a `dryRun` would write.
 */
function skipInvalidOf(query: URLSearchParams): boolean {
  for (const name of query.keys())
    if (name !== 'skipInvalid')
      throw new ApiError('invalid_parameter', `${shownName(name)} is not a parameter here; it takes skipInvalid.`, {
        param: cutName(name),
      });
  const values = query.getAll('skipInvalid');
  if (values.length > 1)
    throw new ApiError('invalid_parameter', 'skipInvalid may be given only once.', { param: 'skipInvalid' });
  return queryBoolean('skipInvalid', values[0] || 'false');
}

export function createIngestHandler(deps: { config: Config; database: Database; logger: Logger }) {
  const expected = deps.config.INGEST_TOKEN ? digest(deps.config.INGEST_TOKEN) : null;
  const shares = createIngestShares({
    instance: deps.config.INGEST_MAX_CONCURRENT,
    perWorkspace: deps.config.INGEST_MAX_CONCURRENT_PER_WORKSPACE,
  });
  return async function handleIngest(request: Request, url: URL, requestId: string): Promise<Response> {
    const kind = url.pathname.slice('/internal/ingest/'.length);
    if (kind !== 'metrics' && kind !== 'scans')
      return errorResponse(new ApiError('not_found', 'No such path.'), requestId);
    // Still a 404 (nothing here answers), but one that tells an operator why.
    if (!expected)
      return errorResponse(
        new ApiError('not_found', 'Ingestion is switched off on this instance: start it with INGEST_TOKEN set.'),
        requestId,
      );
    if (request.method !== 'POST')
      return errorResponse(new ApiError('method_not_allowed', 'Use POST.'), requestId, { Allow: 'POST' });
    const token = bearerToken(request.headers.get('authorization'));
    if (!token || !timingSafeEqual(digest(token), expected))
      return errorResponse(
        new ApiError('unauthenticated', 'Send the ingest service token as a bearer token.', {
          headers: bearerChallenge(token ? 'invalid_token' : undefined),
        }),
        requestId,
      );
    // A compressed body was read as its compressed bytes: a 400 for each "line" of it, where the encoding is the fault.
    const coding = request.headers.get('content-encoding');
    if (coding && coding.trim().toLowerCase() !== 'identity')
      return errorResponse(
        new ApiError('unsupported_media_type', 'Send the body uncompressed: no Content-Encoding is read here.'),
        requestId,
      );
    const skipInvalid = skipInvalidOf(url.searchParams);
    const slot = shares.take();
    if (slot instanceof ApiError) return errorResponse(slot, requestId);
    try {
      const summary = await ingest(
        deps.database.pool,
        kind as IngestKind,
        namedOrArriving(
          readAhead(bodyChunks(request, MAX_BODY_BYTES)),
          () => slot.named,
          deps.config.INGEST_NAMING_SECONDS,
        ),
        { skipInvalid, onWorkspace: slot.join },
      );
      const { omitted, ...data } = summary;
      // Without skipInvalid, any bad line means nothing was written.
      if (summary.rejected && !skipInvalid) {
        const listed = omitted ? `; the first ${summary.problems.length} are listed` : '';
        const refusal = new ApiError(
          'invalid_body',
          `${summary.rejected} line(s) are invalid${listed}; nothing was imported.`,
        );
        return errorResponse(refusal, requestId, {}, { lines: summary.problems, omitted });
      }
      return jsonResponse({ data, meta: {} });
    } catch (error) {
      if (error instanceof UnnamedBody)
        return errorResponse(error, requestId, {}, { lines: error.problems, omitted: error.omitted });
      return jsonFailure(error, { requestId, logger: deps.logger, what: 'ingest failed' });
    } finally {
      slot.release();
    }
  };
}

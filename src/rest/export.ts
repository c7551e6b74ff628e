// Streaming export of v1 collections: the export routes (`/answers.csv`, `/answers.ndjson`, …;
// routes.ts) and `Accept: text/csv` or `application/x-ndjson` on their JSON twins give every row
// of the filtered range, read from a database cursor a batch at a time. The response is a Node
// stream that pulls the next batch only when the socket has taken the last one (back-pressure), and a client that goes
// away
// destroys it, which closes the cursor and stops the query. Each 1 000 rows streamed spend one
// rate-limit token; with the bucket empty, the stream waits for the next token rather than
// failing half-way.
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { ClientGone, type RowCursor, type WorkspaceScope } from '../db/workspace-scope.js';
import type { RowExport } from '../ai-visibility/index.js';
import { Response } from '../http/responses.js';
import { takeExportSlot, type ExportSlots } from './export-slots.js';
import { csvLine } from './csv.js';

export type ExportFormat = 'csv' | 'ndjson';

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson' };

/** Rows per rate-limit token. */
export const ROWS_PER_TOKEN = 1_000;
/**
 * Rows per cursor read, at most: small enough that a batch and the one read ahead stay far
 * below the memory bound of an export (1 000 rows of answers were ~1 MB strings, and the heap
 * grew 90 MB over a million rows), large enough to amortise the round trip.
 */
export const EXPORT_BATCH_ROWS = 200;
/**
 * About the bytes of one chunk: rows run from a few dozen bytes (metrics) to 100 000-character
 * answers, where 200 rows would be 20 MB held per export. The first read takes a tenth of the
 * rows; each next one is sized from the bytes per row seen so far.
 */
export const EXPORT_BATCH_BYTES = 1024 * 1024;
/**
 * Characters of one write, about: a written string is flattened, and one over 128 KiB (64 Ki
 * characters of two-byte text) is a large object that only a full collection frees, so a batch
 * is written in parts below that (whole 200-row batches as one write grew the heap's large
 * objects by 15 MB over an export of a million answers).
 */
export const EXPORT_CHUNK_CHARACTERS = 48 * 1024;

interface AcceptEntry {
  type: string;
  q: number;
  order: number;
}

function acceptEntries(accept: string): AcceptEntry[] {
  return accept.split(',').map((part, order) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    return { type: type.trim(), q: Number.isFinite(weight) ? weight : 0, order };
  });
}

const jsonEntry = (entries: readonly AcceptEntry[]) => {
  const weightOf = (type: string) => entries.find((entry) => entry.type === type) ?? null;
  return weightOf('application/json') ?? weightOf('application/*') ?? weightOf('*/*');
};

/**
 * The representation the client prefers (RFC 9110 §12.5.1): CSV or NDJSON when it weighs one
 * of them above JSON; JSON (null) otherwise, so `*\/*` and browsers keep getting JSON.
 */
export function negotiateExport(accept: string | null): ExportFormat | null {
  if (!accept) return null;
  const entries = acceptEntries(accept);
  const json = jsonEntry(entries);
  const best = (['csv', 'ndjson'] as const)
    .map((format) => ({ format, entry: entries.find((entry) => entry.type === EXPORT_MEDIA_TYPES[format]) }))
    .filter((candidate) => candidate.entry && candidate.entry.q > 0)
    .sort((a, b) => b.entry!.q - a.entry!.q || a.entry!.order - b.entry!.order)[0];
  if (!best) return null;
  if (
    json &&
    (json.q > best.entry!.q ||
      (json.q === best.entry!.q && json.order < best.entry!.order && json.type === 'application/json'))
  )
    return null;
  return best.format;
}

/**
 * Whether JSON is acceptable at all: no Accept header, or one naming JSON, `application/*` or `*\/*` with q above 0.
 */
export function acceptsJson(accept: string | null): boolean {
  if (!accept) return true;
  return (jsonEntry(acceptEntries(accept))?.q ?? 0) > 0;
}

/**
 * Writes a record as one NDJSON line. The record's `jsonText` keys hold JSON text already
 * (RowExport.jsonText): the other keys are serialised and those members follow them as they are.
 */
export function ndjsonLineWriter(jsonText: readonly string[] = []): (record: Record<string, unknown>) => string {
  if (!jsonText.length) return (record) => `${JSON.stringify(record)}\n`;
  const names = jsonText.map((key) => `${JSON.stringify(key)}:`);
  const left = Object.fromEntries(jsonText.map((key) => [key, undefined]));
  return (record) => {
    const others = JSON.stringify({ ...record, ...left });
    let line = others === '{}' ? '{' : `${others.slice(0, -1)},`;
    for (let index = 0; index < jsonText.length; index++)
      line += `${index ? ',' : ''}${names[index]}${(record[jsonText[index]!] as string | null) ?? 'null'}`;
    return `${line}}\n`;
  };
}

export interface ExportStreamOptions {
  scope: WorkspaceScope;
  /** The fair shares of the export pool, and the key asking for one. */
  slots: ExportSlots;
  keyId: string;
  rows: RowExport;
  format: ExportFormat;
  /** A CSV starts with a UTF-8 byte-order mark (`?bom=true`, routes.ts BOM_ARGUMENT). */
  bom?: boolean;
  /** Takes one rate-limit token, waiting while the bucket is empty. */
  spendToken(): Promise<void>;
  logger: Logger;
  requestId: string;
  /** Cuts the connection (see app.ts Connection); absent in memory, where the body errors instead. */
  abort?: ((error: Error) => void) | undefined;
  /** The request's: aborted once its client went away. */
  signal?: AbortSignal | undefined;
}

/** Rows of the next read, given the rows and bytes streamed so far. */
export function nextBatchRows(streamed: number, bytes: number): number {
  if (!streamed || !bytes) return EXPORT_BATCH_ROWS / 10;
  return Math.max(1, Math.min(EXPORT_BATCH_ROWS, Math.floor((EXPORT_BATCH_BYTES * streamed) / bytes)));
}

async function* exportChunks(
  cursor: RowCursor<Record<string, unknown>>,
  { rows, format, bom, spendToken, logger, requestId, abort }: ExportStreamOptions,
): AsyncGenerator<string> {
  const ndjsonLine = ndjsonLineWriter(rows.jsonText);
  try {
    if (format === 'csv') yield `${bom ? '\uFEFF' : ''}${csvLine(rows.columns)}`;
    let bytes = 0;
    let nextRead = cursor.read(nextBatchRows(0, 0));
    for (let streamed = 0; ;) {
      const batchRows = await nextRead;
      if (!batchRows.length) return;
      // PostgreSQL produces the next rows while these are written (one read ahead, sized from
      // the rows written so far). An export cut short leaves it to the cursor's close.
      nextRead = cursor.read(nextBatchRows(streamed, bytes));
      nextRead.catch(() => {});
      // The request's own token paid for the first thousand rows; each further thousand takes one.
      const thousandsBeyondFirst = (rows: number) => Math.max(0, Math.ceil(rows / ROWS_PER_TOKEN) - 1);
      const tokensDue = thousandsBeyondFirst(streamed + batchRows.length) - thousandsBeyondFirst(streamed);
      for (let token = 0; token < tokensDue; token++) await spendToken();
      streamed += batchRows.length;
      let chunk = '';
      for (const row of batchRows) {
        const record = rows.record(row);
        chunk += format === 'csv' ? csvLine(rows.columns.map((column) => record[column])) : ndjsonLine(record);
        if (chunk.length < EXPORT_CHUNK_CHARACTERS) continue;
        bytes += chunk.length;
        yield chunk;
        chunk = '';
      }
      if (!chunk) continue;
      bytes += chunk.length;
      yield chunk;
    }
  } catch (error) {
    // Headers are gone: the only honest signal left is a response cut short, never one that
    // looks complete. (A body stream's error alone leaves node:http's response open.)
    logger.error({ err: error, requestId }, 'export failed');
    if (!abort) throw error;
    abort(error as Error);
  }
}

/** Rows already computed, read as a cursor reads them. */
function rowsCursor<Row>(rows: Row[]): RowCursor<Row> {
  let next = 0;
  return {
    read: async (count) => rows.slice(next, (next += count)),
    close: async () => {
      next = rows.length;
    },
  };
}

/**
 * A 200 whose body streams the export. A share of the export pool is taken and the cursor
 * opened before answering, so a caller over its share gets 429 and a full instance 503 instead
 * of a stream that breaks; both are given back when the body ends, fails or is abandoned (a
 * client that goes away, or one cut for not reading: http/stall-watch.ts), whichever comes first.
 */
export async function exportResponse(
  options: ExportStreamOptions,
  headers: Record<string, string>,
  method: string,
): Promise<Response> {
  const type = EXPORT_MEDIA_TYPES[options.format];
  const responseHeaders = {
    ...headers,
    'Content-Type': options.format === 'csv' ? `${type}; charset=utf-8; header=present` : `${type}; charset=utf-8`,
    'Content-Disposition': `attachment; filename="${options.rows.filename}.${options.format}"`,
    'Cache-Control': 'private, no-store',
    Vary: 'Accept',
  };
  if (method === 'HEAD') return new Response(null, { headers: responseHeaders });
  const slot = await takeExportSlot(options.slots, options.scope.workspaceId, options.keyId, headers);
  let cursor: RowCursor<Record<string, unknown>>;
  try {
    // A client that left while its export waited for a share has nobody to stream to.
    if (options.signal?.aborted) throw new ClientGone();
    cursor =
      'computed' in options.rows
        ? rowsCursor(await options.rows.computed())
        : await options.scope.cursor(options.rows.statement, options.rows.values);
  } catch (error) {
    slot.release();
    throw error;
  }
  const body = Readable.from(exportChunks(cursor, options), { objectMode: false, highWaterMark: 64 * 1024 });
  // The share is given back with the body, so an export that follows at once is not refused; if
  // its connection is still ending this one's transaction, the pool has it wait that moment.
  body.once('close', () => {
    slot.release();
    void cursor.close();
  });
  // Logged where it happened; the response is cut (abort) or, in memory, its reader sees it.
  body.on('error', () => {});
  // A body its connection never takes (the client left before the answer was sent) is never read
  // nor closed by anyone else: it ends here, and its share and cursor go back with it.
  const ended = () => body.destroy();
  if (options.signal?.aborted) ended();
  else options.signal?.addEventListener('abort', ended, { once: true });
  return new Response(body as unknown as BodyInit, { headers: responseHeaders });
}

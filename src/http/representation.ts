// How a JSON body leaves: a strong ETag for conditional requests and gzip/brotli per
// Accept-Encoding above a size threshold. Negotiation and validators are pure functions.
import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Response } from './responses.js';

/** Below this, compressing costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export type ContentCoding = 'br' | 'gzip';

/** A strong validator of the identity body: the same bytes always give the same tag. */
export function strongEtag(body: string): string {
  // The one-shot hash: no Hash object per response (hashing was 4–5 % of a list's CPU).
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * If-None-Match (RFC 9110 §13.1.2): `*` or a list of tags, compared weakly; a tag matches
 * whatever content coding it was sent with, since every coding carries the same content.
 */
export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '').replace(/-(br|gzip)"$/, '"');
  return header.split(',').some((tag) => opaque(tag) === etag);
}

/** The preferred coding the client accepts (q > 0): brotli before gzip at equal weight. */
export function negotiateEncoding(acceptEncoding: string | null): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: ContentCoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((coding) => weightOf(coding) > 0).sort((a, b) => weightOf(b) - weightOf(a))[0];
  return best ?? null;
}

const compressors: Record<ContentCoding, (body: string) => Promise<Buffer>> = {
  // Quality 4: most of brotli's gain at a fraction of its top setting's CPU, per request.
  br: (body) => promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (body) => promisify(gzip)(body, { level: 6 }),
};

/** A 200 JSON response with its ETag, compressed when the client accepts it and it pays. */
export async function jsonRepresentation(request: Request, body: string, etag: string, headers: Record<string, string>): Promise<Response> {
  const coding = Buffer.byteLength(body) >= COMPRESSION_THRESHOLD_BYTES ? negotiateEncoding(request.headers.get('accept-encoding')) : null;
  const common = { ...headers, ETag: etag, Vary: 'Accept-Encoding' };
  if (!coding) return new Response(body, { headers: common });
  const compressed = await compressors[coding](body);
  return new Response(new Uint8Array(compressed), { headers: { ...common, 'Content-Encoding': coding, ETag: etag.replace(/"$/, `-${coding}"`) } });
}

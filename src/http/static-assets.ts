// Static files the pages load (GraphiQL's, Scalar's, the views' bundles and style sheets). Each is
// served under a name carrying a hash of its bytes, which the page names: a browser keeps it for a
// year without asking again, and new content is a new name. The bytes go out as every kept body
// does (representation.ts): brotli or gzip per Accept-Encoding, each coding made once on first use
// and kept with the asset, never per request.
import { heldTag, keptBody, representation, varyOnEncoding, type FinishedBody } from './representation.js';
import { Response } from './responses.js';

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface AssetSource {
  type: string;
  body: string | Uint8Array;
}

export interface StaticAsset {
  /** The name pages use: `graphiql.<hash>.js`. */
  readonly fileName: string;
  readonly type: string;
  readonly finished: FinishedBody;
}

// The hash in a name: base64url, so it holds no dot and the logical name is found again by cutting it out.
const HASH_CHARS = 12;
const HASHED_NAME = new RegExp(`^(.+)\\.([A-Za-z0-9_-]{${HASH_CHARS}})(\\.[a-z]+)$`);

/** `name.js` as `name.<hash of the ETag's bytes>.js`. */
export function contentHashedName(name: string, etag: string): string {
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}.${etag.slice(1, 1 + HASH_CHARS)}${name.slice(dot)}`;
}

/** The logical name of a hashed one (`graphiql.<hash>.js` → `graphiql.js`), or null. */
export function logicalName(fileName: string): string | null {
  const match = HASHED_NAME.exec(fileName);
  return match ? `${match[1]}${match[3]}` : null;
}

export function staticAsset(name: string, { type, body }: AssetSource): StaticAsset {
  // Bytes once: a large string would be encoded again for every identity answer.
  const bytes = typeof body === 'string' ? (Buffer.from(body) as Buffer<ArrayBuffer>) : new Uint8Array(body);
  const finished = keptBody(bytes);
  return { fileName: contentHashedName(name, finished.etag), type, finished };
}

/**
 * The answer for a body kept for the process's life (an asset, a page made once): 304 when the
 * client holds it, else the body, compressed when the client accepts it.
 */
export async function keptResponse(request: Request, finished: FinishedBody, headers: Record<string, string>) {
  const held = heldTag(request, finished.etag);
  if (held) {
    const validators = { ETag: held, Vary: varyOnEncoding(headers.Vary) };
    return new Response(null, { status: 304, headers: { ...headers, ...validators } });
  }
  return representation(request, finished, headers);
}

/** The answer for an asset: immutable, compressed when the client accepts it. */
export const assetResponse = (request: Request, { type, finished }: StaticAsset): Promise<Response> =>
  keptResponse(request, finished, { 'Content-Type': type, 'Cache-Control': IMMUTABLE_CACHE_CONTROL });

export interface AssetShelf {
  /** The path a page names for a logical name (`graphiql.js` → `/graphql/assets/graphiql.<hash>.js`). */
  href(name: string): Promise<string>;
  /** The answer for a file name under the shelf's path, or null when no asset has that name now. */
  serve(request: Request, fileName: string): Promise<Response | null>;
}

/**
 * Assets under one path, each made from its source on first use and kept for the process's
 * life; a source that fails is asked again next time.
 */
export function createAssetShelf(basePath: string, sources: Record<string, () => Promise<AssetSource>>): AssetShelf {
  const made = new Map<string, Promise<StaticAsset>>();
  const assetOf = (name: string) => {
    let asset = made.get(name);
    if (!asset) {
      asset = sources[name]!().then((source) => staticAsset(name, source));
      asset.catch(() => made.delete(name));
      made.set(name, asset);
    }
    return asset;
  };
  return {
    href: async (name) => `${basePath}${(await assetOf(name)).fileName}`,
    async serve(request, fileName) {
      const name = logicalName(fileName);
      if (!name || !Object.hasOwn(sources, name)) return null;
      const asset = await assetOf(name);
      return asset.fileName === fileName ? assetResponse(request, asset) : null;
    },
  };
}

// The one origin of the service: the OAuth issuer, the MCP resource, the SSO redirect URI and
// every link in mail come from it, never from a request's Host header. PUBLIC_BASE_URL in
// production; in development the address the server listens on (set once it listens).
import { ApiError } from '../errors/index.js';

export interface PublicOrigin {
  /** e.g. https://signalboard.example.com (no trailing slash). */
  readonly value: string;
  /** Called by the listener when PUBLIC_BASE_URL is unset: the listening address becomes the origin. */
  listeningOn(origin: string): void;
  /** Refuses a request addressed to another host (421), for the doors whose URLs are absolute (OAuth, /mcp). */
  assertAddressed(hostHeader: string | null | undefined, forwardedHost?: string | null): void;
  /**
   * The origin a request was addressed to, for documents that name the server they came from:
   * PUBLIC_BASE_URL's whenever it is set (no Host is ever reflected then); otherwise the Host and
   * scheme it came with (X-Forwarded-Host and -Proto only behind a trusted proxy), and the
   * service's origin for a malformed one.
   */
  addressedOrigin(request: Request): string;
}

const firstOf = (header: string | null) => header?.split(',')[0]!.trim().toLowerCase() || null;

// RFC 3986 host (reg-name of letters, digits, dots and dashes, or an IP literal) and an optional port.
const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
// The URL check catches what the pattern lets through and URL parsing refuses (a port over 65535).
export const isValidHostHeader = (host: string | null | undefined): host is string =>
  typeof host === 'string' && HOST_HEADER.test(host) && URL.canParse(`http://${host}/`);

export function createPublicOrigin(
  configured: string | undefined,
  fallbackPort: number,
  trustProxy: boolean,
): PublicOrigin {
  let origin = configured ? new URL(configured).origin : `http://localhost:${fallbackPort}`;
  let host = new URL(origin).host.toLowerCase();
  return {
    get value() {
      return origin;
    },
    listeningOn(listening) {
      if (configured) return;
      origin = new URL(listening).origin;
      host = new URL(origin).host.toLowerCase();
    },
    assertAddressed(hostHeader, forwardedHost) {
      const given = (trustProxy && forwardedHost ? forwardedHost.split(',')[0]!.trim() : hostHeader)?.toLowerCase();
      if (!isValidHostHeader(given)) throw new ApiError('bad_request', 'The Host header is missing or malformed.');
      // URL parsing drops a default port (":443" on https), as browsers do.
      if (new URL(`${new URL(origin).protocol}//${given}`).host !== host)
        throw new ApiError('misdirected_request', `This server answers for ${origin} only.`);
    },
    addressedOrigin(request) {
      if (configured) return origin;
      const url = new URL(request.url);
      const given =
        (trustProxy && firstOf(request.headers.get('x-forwarded-host'))) ||
        (request.headers.get('host') ?? url.host).toLowerCase();
      const forwardedProto = trustProxy ? firstOf(request.headers.get('x-forwarded-proto')) : null;
      const protocol = forwardedProto === 'https' || forwardedProto === 'http' ? `${forwardedProto}:` : url.protocol;
      return isValidHostHeader(given) ? new URL(`${protocol}//${given}`).origin : origin;
    },
  };
}

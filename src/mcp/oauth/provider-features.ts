// The parts of oidc-provider's configuration that carry this server's policy: client ID
// metadata documents (fetched through the outbound guard, counted per caller address;
// client-metadata-documents.ts) and resource indicators binding opaque access tokens to /mcp
// with the resource's own scopes.
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../../config/index.js';
import { reserveAttempts } from '../../db/attempt-counters.js';
import { createOutboundFetch } from '../../http/outbound-fetch.js';
import { RESOURCE_SCOPES } from '../tools/toolsets.js';
import {
  CLIENT_METADATA_CACHE_SECONDS,
  CLIENT_METADATA_FETCH_POLICY,
  CLIENT_METADATA_MAX_BYTES,
  CLIENT_METADATA_TIMEOUT_MS,
  clientMetadataFetchKey,
  clientMetadataPolicy,
  clientMetadataProblem,
  mayFetchClientMetadata,
  rememberingFetch,
} from './client-metadata-documents.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** The feature and the fetch it uses: a document fetched once serves every sign-in for a while. */
export function clientMetadataDocuments(deps: {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
  addressOf(req: IncomingMessage): string;
}) {
  const outboundPolicy = clientMetadataPolicy(deps.config);
  const documents = rememberingFetch(
    createOutboundFetch({
      policy: outboundPolicy,
      timeoutMs: CLIENT_METADATA_TIMEOUT_MS,
      maxBytes: CLIENT_METADATA_MAX_BYTES,
    }),
  );
  const feature = {
    enabled: true,
    ack: 'draft-02' as const,
    allowFetch: async (ctx: KoaContextWithOIDC, clientId: string) => {
      if (!mayFetchClientMetadata(outboundPolicy, clientId)) return false;
      // A replayed answer is no new request: it does not count.
      if (documents.remembers(clientId)) return true;
      const key = clientMetadataFetchKey(deps.addressOf(ctx.req));
      const counted = (await reserveAttempts(deps.pool, [{ key, policy: CLIENT_METADATA_FETCH_POLICY }])).get(key)!;
      return counted.count <= CLIENT_METADATA_FETCH_POLICY.limit;
    },
    allowClient: async (_ctx: KoaContextWithOIDC, client: Client) => {
      const problem = clientMetadataProblem(client);
      if (problem) deps.logger.warn({ clientId: client.clientId, problem }, 'client metadata document refused');
      return problem === null;
    },
    cacheDuration: CLIENT_METADATA_CACHE_SECONDS,
  };
  const fetch = (url: string | URL | Request, options: unknown) =>
    documents.fetch(url instanceof Request ? url.url : url, options as Parameters<typeof documents.fetch>[1]);
  return { feature, fetch };
}

/** One resource, /mcp: every token is for it, with its scopes, opaque and short-lived. */
export const resourceIndicators = (resource: string) => ({
  enabled: true,
  defaultResource: () => resource,
  useGrantedResource: () => true,
  getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
    if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
    return {
      scope: RESOURCE_SCOPES.join(' '),
      audience: resource,
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      accessTokenFormat: 'opaque' as const,
    };
  },
});

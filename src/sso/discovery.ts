// A workspace's identity provider, discovered (openid-client v6) and kept for a while: its
// metadata and keys change rarely, and a changed connection (issuer, client, saved again) is a
// different fingerprint, so it is discovered afresh at once. Every call to the provider goes
// through the outbound guard.
import { LRUCache } from 'lru-cache';
import type * as Oidc from 'openid-client';
import type { Logger } from 'pino';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { ApiError } from '../errors/index.js';
import type { OutboundFetch } from '../http/outbound-fetch.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { clientSecretContext } from './connections.js';
import { refused } from './refused.js';

const DISCOVERY_TTL_MS = 10 * 60_000;
/** Workspaces whose provider is kept discovered: more than sign in within DISCOVERY_TTL_MS on one instance. */
const DISCOVERIES_KEPT = 1_000;

export interface DiscoveryDeps {
  prisma: PrismaClient;
  box: SecretBox;
  allowHttpIssuers: boolean;
  /** The outbound guard's fetch (no private targets, timeout, size cap). */
  fetch: OutboundFetch;
  logger: Logger;
}

/** openid-client (with jose) is loaded by the first sign-in that needs it: most instances never hold it. */
let openidClient: Promise<typeof Oidc> | null = null;
export const loadOpenidClient = () => (openidClient ??= import('openid-client'));

/** The configuration of a workspace's identity provider, discovered at most once per DISCOVERY_TTL_MS. */
export function providerConfigurations(deps: DiscoveryDeps) {
  const discovered = new LRUCache<string, { config: Oidc.Configuration; fingerprint: string }>({
    max: DISCOVERIES_KEPT,
    ttl: DISCOVERY_TTL_MS,
  });

  async function discover(connection: { issuer: string; clientId: string; clientSecret: string }, workspaceId: string) {
    const secret = deps.box.open(connection.clientSecret, clientSecretContext(workspaceId));
    const oidc = await loadOpenidClient();
    try {
      // enableNonRepudiationChecks: without it the library trusts the TLS channel of the token
      // endpoint and does not verify the ID token's signature (OIDC Core 3.1.3.7 allows that);
      // we verify it against the provider's published keys anyway.
      const execute = [oidc.enableNonRepudiationChecks, ...(deps.allowHttpIssuers ? [oidc.allowInsecureRequests] : [])];
      const config = await oidc.discovery(
        new URL(connection.issuer),
        connection.clientId,
        undefined,
        oidc.ClientSecretBasic(secret),
        { execute, [oidc.customFetch]: deps.fetch as never },
      );
      // Keys and tokens are fetched through the same guard.
      config[oidc.customFetch] = deps.fetch as never;
      return config;
    } catch (error) {
      // The person sees a generic line (no oracle for what lives at that address); the log has the detail.
      deps.logger.warn({ err: error, workspaceId, issuer: connection.issuer }, 'identity provider discovery failed');
      throw new ApiError(
        'unavailable',
        'The identity provider could not be reached. Try again later, or sign in with your password.',
      );
    }
  }

  return async function configurationFor(workspaceId: string): Promise<Oidc.Configuration> {
    const connection = await deps.prisma.ssoConnection.findUnique({ where: { workspaceId } });
    if (!connection) throw refused('this workspace has no identity provider configured.');
    const fingerprint = `${connection.issuer}|${connection.clientId}|${connection.updatedAt.getTime()}`;
    const cached = discovered.get(workspaceId);
    if (cached?.fingerprint === fingerprint) return cached.config;
    const config = await discover(connection, workspaceId);
    discovered.set(workspaceId, { config, fingerprint });
    return config;
  };
}

// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client whose
// client_id is an https URL is described by the JSON document at that URL, which oidc-provider
// fetches when the client first shows up. The fetch goes through the outbound guard (public
// addresses on 443 only, no redirects, a deadline, a 5 KB cap) and the document must pass the
// same limits as a dynamic registration, so neither door is wider than the other.
import { LRUCache } from 'lru-cache';
import type { Client } from 'oidc-provider';
import type { CounterPolicy } from '../../db/attempt-counters.js';
import type { OutboundFetch } from '../../http/outbound-fetch.js';
import type { TargetPolicy } from '../../http/outbound-guard.js';
import { urlRefusal } from '../../http/outbound-guard.js';
import { registrationProblem } from './client-registration.js';

/** Where client metadata documents may live; tests widen it to loopback with OUTBOUND_ALLOW_PRIVATE_TARGETS. */
export const clientMetadataPolicy = (config: { OUTBOUND_ALLOW_PRIVATE_TARGETS: boolean }): TargetPolicy => ({
  allowHttp: false,
  allowPrivate: config.OUTBOUND_ALLOW_PRIVATE_TARGETS,
  ports: [443],
});

/** The draft's own ceiling on a document's size. */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
export const CLIENT_METADATA_TIMEOUT_MS = 2_500;
/**
 * A fetched document is kept at least 1 minute and at most 1 hour, whatever its Cache-Control says
 * (oidc-provider keeps at most 100).
 */
export const CLIENT_METADATA_CACHE_SECONDS = { min: 60, max: 3_600 };

/**
 * Document fetches per caller address: each unknown https client_id makes this server send a GET
 * somewhere, so an address may not turn it into a request cannon. Cached documents do not count.
 */
export const CLIENT_METADATA_FETCH_POLICY: CounterPolicy = { limit: 30, windowMs: 3_600_000 };
export const clientMetadataFetchKey = (address: string) => `oauth:cimd:${address}`;

/** Whether the provider may fetch this client_id at all: refused URLs never reach the network. */
export const mayFetchClientMetadata = (policy: TargetPolicy, clientId: string) => urlRefusal(clientId, policy) === null;

/** Why a client described by a fetched document is refused, or null (the registration limits). */
export function clientMetadataProblem(client: Pick<Client, 'metadata'>): string | null {
  return registrationProblem(client.metadata())?.description ?? null;
}

/**
 * The host a client's id URL names, when it was identified by a metadata document (what the consent
 * page can vouch for).
 */
export const verifiedClientHost = (client: Pick<Client, 'clientId'> | undefined): string | null =>
  // oidc-provider marks such clients with a property its types do not declare.
  client && (client as { clientIdMetadataDocument?: boolean }).clientIdMetadataDocument === true
    ? new URL(client.clientId).host
    : null;

/** How long a fetched answer (or failure) is replayed: long enough for one authorization request. */
const REMEMBER_FETCH_MS = 30_000;

interface Answer {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
}

/**
 * A fetch that replays what it fetched for a short while. oidc-provider looks an unknown client
 * up twice in one authorization request and caches only documents that passed, so without this a
 * hostile client_id cost two outbound requests and two slots of the fetch limit. Concurrent
 * lookups of one URL share the request; failures are replayed too.
 */
export function rememberingFetch(fetch: OutboundFetch) {
  const answers = new LRUCache<string, Promise<Answer>>({ max: 1_000, ttl: REMEMBER_FETCH_MS });
  return {
    remembers: (url: string) => answers.has(url),
    fetch: (async (input, init) => {
      const url = String(input);
      let answer = answers.get(url);
      if (!answer) {
        answer = fetch(url, init).then(async (response) => ({
          status: response.status,
          headers: [...response.headers],
          body: new Uint8Array(await response.arrayBuffer()),
        }));
        answer.catch(() => {});
        answers.set(url, answer);
      }
      const { status, headers, body } = await answer;
      return new Response([101, 204, 205, 304].includes(status) ? null : body, { status, headers });
    }) satisfies OutboundFetch,
  };
}

// Failed authentications per client address. Every other limit is keyed by a credential; a
// caller without a valid one (a wrong key, a guessed token) had none, and 100 connections sending
// bad keys got 4 224 answers of 401 a second while other tenants' requests queued behind them.
// Each 401 to a request that presented a credential spends a token of its address's bucket; past
// it the address is answered 429 with Retry-After (whose connection the node server then stops
// reading for that long). A valid key or token never spends from it, so people sharing an address
// with a broken script are not locked out; nor does a request without one (an MCP client's first,
// credential-less call is how it discovers where to get a token: many share a host's address).
import { ApiError } from '../errors/index.js';
import { errorResponse } from '../http/responses.js';
import { memoryRateLimitStore } from './rate-limit-store.js';
import type { BucketPolicy } from './token-bucket.js';

export function createFailedAuthThrottle(policy: BucketPolicy, maxAddresses = 10_000) {
  // Per instance, in memory: the buckets of the API's rate limits, keyed by address.
  const buckets = memoryRateLimitStore(maxAddresses);
  return {
    /** The answer to send: `response` itself, or 429 once its address has failed authentication too often. */
    async answer(
      request: Request,
      response: ReturnType<typeof errorResponse>,
      address: string,
      requestId: string,
    ): Promise<ReturnType<typeof errorResponse>> {
      if (response.status !== 401 || !request.headers.has('authorization')) return response;
      const [result] = await buckets.take([{ key: address, policy }], Date.now());
      if (result!.allowed) return response;
      const retryAfter = String(result!.retryAfterSeconds);
      return errorResponse(
        new ApiError(
          'rate_limited',
          `Too many failed authentications from this address; retry in ${retryAfter} s with a valid key or token.`,
          { headers: { 'Retry-After': retryAfter } },
        ),
        requestId,
      );
    },
  };
}

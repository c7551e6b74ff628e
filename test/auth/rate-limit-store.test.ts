// The Redis store behind a memory of refusals: a flooding workspace, once refused, costs Redis
// nothing until its bucket could hold a token again, and is told the same as Redis would say.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisRateLimitStore, rememberingRefusals, type BucketRef } from '../../src/auth/rate-limit-store.js';
import { redisAvailable, startRedis } from '../support/processes.js';

describe.skipIf(!redisAvailable())('rememberingRefusals over Redis', () => {
  let server: Awaited<ReturnType<typeof startRedis>>;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  /** How many scripts Redis has run since its statistics were reset. */
  const scriptsRun = async () => Number(/cmdstat_eval:calls=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);

  const buckets = (name: string): BucketRef[] => [
    { key: `{${name}}:key`, policy: { capacity: 5, refillPerSecond: 1 } },
    { key: `{${name}}:workspace`, policy: { capacity: 15, refillPerSecond: 3 } },
  ];

  it('asks Redis once for a refused flood until the wait is over, then asks again', async () => {
    const store = rememberingRefusals(redisRateLimitStore(redis));
    const refs = buckets('flood');
    const start = Date.now();
    await redis.config('RESETSTAT');
    const answers = [];
    // 200 requests in the same second: 5 pass, then one refusal from Redis, then the memory.
    for (let index = 0; index < 200; index++) answers.push(await store.take(refs, start));
    expect(answers.filter((results) => results[0]!.allowed)).toHaveLength(5);
    expect(await scriptsRun()).toBe(6);
    // Each remembered refusal says what Redis said: no token, retry in one second.
    expect(answers.at(-1)!.map((result) => [result.allowed, result.remaining, result.retryAfterSeconds])).toEqual([
      [false, 0, 1],
      [false, 10, 0],
    ]);
    // A second later the key's bucket holds a token again: Redis is asked, and admits.
    expect((await store.take(refs, start + 1_000))[0]!.allowed).toBe(true);
    expect(await scriptsRun()).toBe(7);
  });

  it('asks Redis again at once after a refund gave a token back', async () => {
    const store = rememberingRefusals(redisRateLimitStore(redis));
    const refs = buckets('refund');
    const now = Date.now();
    for (let index = 0; index < 6; index++) await store.take(refs, now);
    expect((await store.take(refs, now))[0]!.allowed).toBe(false);
    await store.take(refs, now, -1);
    expect((await store.take(refs, now))[0]!.allowed).toBe(true);
  });
});

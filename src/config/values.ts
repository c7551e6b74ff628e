// How a variable's text becomes a value: a token bucket, a flag, a retry schedule.
import { z } from 'zod';

export const bucketSpec = z
  .string()
  .regex(/^\d+\/\d+(\.\d+)?$/, 'expected "<burst>/<refill per second>", e.g. 120/2')
  .transform((spec) => {
    const [capacity, refillPerSecond] = spec.split('/').map(Number);
    return { capacity: capacity!, refillPerSecond: refillPerSecond! };
  });

export const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((v) => v === 'true');

/** The contract's retry schedule: seconds after each failed attempt (the first attempt is immediate). */
export const DEFAULT_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,50400,72000,86400';

export const retrySchedule = z
  .string()
  .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, 'expected comma-separated delays in seconds, e.g. 5,300,1800')
  .transform((text) => text.split(',').map(Number))
  .refine((delays) => delays.length <= 50, 'at most 50 retries');

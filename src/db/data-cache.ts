// Computed report data and AI-visibility metrics, kept per instance. A key names everything the
// result depends on — workspace, report or project, parameters, the resolved date range and the
// data version — where the data version is a counter on the client or project row that every
// ingest bumps in its own transaction, and that each request reads with the row it loads anyway
// (reports.find, projects.find). So a result never outlives its data, on any instance, without
// a message between instances: after an ingest the next request asks under a new key, and the
// stale entry ages out. Bounded in bytes (the JSON size of each entry), not only in entries.
import { LRUCache } from 'lru-cache';
import { singleFlight } from '../http/single-flight.js';
import { ClientGone } from './workspace-scope.js';

export interface DataCache {
  get<T extends object>(key: string): T | undefined;
  /** `bytes`, when the caller knows the entry's size, spares serialising it to measure it. */
  set(key: string, value: object, bytes?: number): void;
  /**
   * The value kept under `key`, or `compute()`'s, stored with `bytesOf` its size. Callers that
   * miss together share one computation: a burst of polls of an uncached body otherwise computes
   * it once per poll and holds every result at once (docs/decisions/data-access.md). Off with the
   * cache: nothing is shared then.
   */
  getOrCompute<T extends object>(key: string, compute: () => Promise<T>, bytesOf?: (value: T) => number): Promise<T>;
  /** False when the cache is off (DATA_CACHE_MAX_BYTES=0): nothing set is kept. */
  readonly keeps: boolean;
  readonly size: number;
  readonly bytes: number;
  /** Lookups since start, for the metrics. */
  readonly hits: number;
  readonly misses: number;
}

export function createDataCache(maxBytes: number): DataCache {
  if (maxBytes === 0)
    return {
      get: () => undefined,
      set: () => {},
      getOrCompute: (_key, compute) => compute(),
      keeps: false,
      size: 0,
      bytes: 0,
      hits: 0,
      misses: 0,
    };
  const cache = new LRUCache<string, object>({
    maxSize: maxBytes,
    // UTF-16 in memory: about two bytes per character of the JSON.
    sizeCalculation: (value) => Math.max(1, JSON.stringify(value).length * 2),
  });
  const computing = singleFlight<string, object>();
  let hits = 0;
  let misses = 0;
  const get = <T extends object>(key: string) => {
    const value = cache.get(key);
    if (value === undefined) misses++;
    else hits++;
    return value as T | undefined;
  };
  const set = (key: string, value: object, bytes?: number) => void cache.set(key, value, bytes ? { size: bytes } : {});
  return {
    get,
    set,
    getOrCompute<T extends object>(key: string, compute: () => Promise<T>, bytesOf?: (value: T) => number): Promise<T> {
      const kept = get<T>(key);
      if (kept) return Promise.resolve(kept);
      const computeAndKeep = async () => {
        const value = await compute();
        set(key, value, bytesOf?.(value));
        return value;
      };
      // The shared work runs under its first caller's request: if that client went away, the
      // others compute for themselves (a caller whose own client went away stops at once).
      return (computing.run(key, computeAndKeep) as Promise<T>).catch((error: unknown) => {
        if (!(error instanceof ClientGone)) throw error;
        return computeAndKeep();
      });
    },
    keeps: true,
    get size() {
      return cache.size;
    },
    get bytes() {
      return cache.calculatedSize;
    },
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
  };
}

/**
 * Loads what `keys` ask for, from the cache where it holds them; the misses are computed
 * together in one call (one batch, one statement) and stored.
 */
export async function cachedBatch<K, V extends object>(
  cache: DataCache,
  keys: readonly K[],
  cacheKeyOf: (key: K) => string,
  computeMisses: (misses: K[]) => Promise<V[]>,
): Promise<V[]> {
  const cacheKeys = keys.map(cacheKeyOf);
  const results = cacheKeys.map((cacheKey) => cache.get<V>(cacheKey));
  const missing = results.flatMap((result, index) => (result ? [] : [index]));
  if (missing.length) {
    const computed = await computeMisses(missing.map((index) => keys[index]!));
    missing.forEach((index, position) => {
      results[index] = computed[position]!;
      cache.set(cacheKeys[index]!, computed[position]!);
    });
  }
  return results as V[];
}

/**
 * The data version a report or project row carries: every SELECT of the report and project
 * repositories includes it. Missing, nothing may be cached, so this throws.
 */
export function dataVersionOf(row: object): string {
  const version = (row as { dataVersion?: unknown }).dataVersion;
  if (typeof version !== 'string')
    throw new Error('a report or project row without its dataVersion reached the data cache');
  return version;
}

// node:zlib as it is, with the calls of each compressor counted: the factory of a test file's
// vi.mock('node:zlib', …), to see which compressor ran and how often.
import type * as Zlib from 'node:zlib';

export interface CompressorCalls {
  brotliCompress: number;
  brotliCompressSync: number;
  gzip: number;
  gzipSync: number;
}

export function countedZlib(zlib: typeof Zlib, calls: CompressorCalls): typeof Zlib {
  const counted: Record<string, unknown> = { ...zlib };
  for (const name of Object.keys(calls) as (keyof CompressorCalls)[]) {
    const compress = zlib[name] as (...args: unknown[]) => unknown;
    counted[name] = (...args: unknown[]) => {
      calls[name]++;
      return compress(...args);
    };
  }
  return counted as typeof Zlib;
}

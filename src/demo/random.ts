/** mulberry32: a small seeded PRNG, so demo data is the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A PRNG of its own for a named part of the demo (FNV-1a of the key), so drawing more there leaves the rest's numbers
 * as they were.
 */
export const seededRandomFor = (key: string): (() => number) =>
  seededRandom([...key].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619), 2166136261));

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** The items in a seeded random order. */
export const shuffled = <T>(random: () => number, items: readonly T[]): T[] =>
  items
    .map((item) => ({ item, key: random() }))
    .sort((a, b) => a.key - b.key)
    .map((entry) => entry.item);

// What a run read and searched before it answered. Pure: ingestion stores what these return,
// so an answer's `cited` marks, the per-scan source totals and the aggregates agree.
import { registrableDomain } from './domains.js';
import type { Run } from './runs.js';

/** A page as an answer shows it: `cited` when its normalised URL is among the answer's citations. */
export interface RetrievedPage {
  url: string;
  domain: string;
  title: string | null;
  cited: boolean;
}

/**
 * The URL compared between pages read and pages cited: the scheme and host lower-cased, the
 * fragment dropped, as the WHATWG URL parser writes it (which also drops a default port and
 * writes an empty path as "/"). Ingestion accepts only URLs that parse.
 */
export function normaliseUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/** Search queries are compared trimmed and lower-cased. */
export const searchQueryKey = (query: string): string => query.trim().toLowerCase();

/** The run's pages read, in the engine's order, each marked cited or not. */
export function retrievedPages(run: Pick<Run, 'citations' | 'retrieved'>): RetrievedPage[] {
  if (!run.retrieved?.length) return [];
  const cited = new Set((run.citations ?? []).map((citation) => normaliseUrl(citation.url)));
  return run.retrieved.map((page) => ({ url: page.url, domain: registrableDomain(page.url), title: page.title ?? null, cited: cited.has(normaliseUrl(page.url)) }));
}

/** The run's distinct query keys, in the order first run. */
export const distinctQueryKeys = (run: Pick<Run, 'searchQueries'>): string[] => [...new Set((run.searchQueries ?? []).map(searchQueryKey))];

/** Bytes of query keys a stored part starts within (migration 0013 applies the same rule). */
const QUERY_PART_BYTES = 512;
/** Each key's share of a part beyond its bytes: the array's per-element overhead, counted as PostgreSQL stores it. */
const QUERY_KEY_OVERHEAD = 8;

/**
 * A run's distinct query keys as stored: in code-point order, cut into parts that each fit the
 * covering index's entry. A key goes to part ⌊(bytes of the keys before it, 8 more each) / 512⌋;
 * parts come out in that order (their numbers may skip).
 */
export function queryKeyParts(keys: readonly string[]): { part: number; queries: string[] }[] {
  const ordered = keys.map((key) => Buffer.from(key)).sort(Buffer.compare);
  const parts: { part: number; queries: string[] }[] = [];
  let before = 0;
  for (const bytes of ordered) {
    const part = Math.floor(before / QUERY_PART_BYTES);
    if (parts.at(-1)?.part !== part) parts.push({ part, queries: [] });
    parts.at(-1)!.queries.push(bytes.toString());
    before += bytes.length + QUERY_KEY_OVERHEAD;
  }
  return parts;
}

// What a run read and searched before it answered. Pure: ingestion stores what these return,
// so an answer's `cited` marks, the per-scan source totals and the aggregates agree.
import { registrableDomain } from '../sources/domains.js';
import { urlFacts } from '../sources/url-facts.js';
import type { Run } from './runs.js';

/** A page as an answer shows it: `cited` when its normalised URL is among the answer's citations. */
export interface RetrievedPage {
  url: string;
  domain: string;
  title: string | null;
  cited: boolean;
}

/**
 * The URL compared between pages read and pages cited (sources/url-facts.ts); ingestion accepts only
 * URLs that parse.
 */
export function normaliseUrl(url: string): string {
  const facts = urlFacts(url);
  if (!facts) throw new TypeError('not a URL');
  return facts.normalised;
}

/** Search queries are compared trimmed and lower-cased. */
export const searchQueryKey = (query: string): string => query.trim().toLowerCase();

/** The run's pages read, in the engine's order, each marked cited or not. */
export function retrievedPages(run: Pick<Run, 'citations' | 'retrieved'>): RetrievedPage[] {
  if (!run.retrieved?.length) return [];
  const cited = new Set((run.citations ?? []).map((citation) => normaliseUrl(citation.url)));
  return run.retrieved.map((page) => ({
    url: page.url,
    domain: registrableDomain(page.url),
    title: page.title ?? null,
    cited: cited.has(normaliseUrl(page.url)),
  }));
}

/** The run's distinct query keys, in the order first run. */
export const distinctQueryKeys = (run: Pick<Run, 'searchQueries'>): string[] => [
  ...new Set((run.searchQueries ?? []).map(searchQueryKey)),
];

/** A page a run read, once per normalised URL, at the place first read: "runs that read it" is a count. */
export interface PageRead {
  url: string;
  domain: string;
  cited: boolean;
}

/** The run's distinct pages read under their normalised URLs, in the order first read. */
export function pagesReadOf(read: readonly RetrievedPage[]): PageRead[] {
  const pages = new Map<string, PageRead>();
  for (const page of read) {
    const url = normaliseUrl(page.url);
    if (!pages.has(url)) pages.set(url, { url, domain: page.domain, cited: page.cited });
  }
  return [...pages.values()];
}

/** One scan's figures for one page (a row of ai_page_totals). */
export interface PageTotals {
  domain: string;
  /** Runs that read it, and of those, runs that did not cite it. */
  retrievals: number;
  retrievedNotCited: number;
}

/** One scan's pages read per normalised URL, from each run's distinct pages. */
export function pageTotalsOf(runsPages: Iterable<readonly PageRead[]>): Map<string, PageTotals> {
  const totals = new Map<string, PageTotals>();
  for (const pages of runsPages) {
    for (const page of pages) {
      const current =
        totals.get(page.url) ??
        totals.set(page.url, { domain: page.domain, retrievals: 0, retrievedNotCited: 0 }).get(page.url)!;
      current.retrievals += 1;
      if (!page.cited) current.retrievedNotCited += 1;
    }
  }
  return totals;
}

// A cited source's shares, pooled like every rate of the metric contract: sums first, one
// division, per locale; a zero denominator is null. Pure, so the property tests can split a
// range any way they like and check that the parts pool to the whole.
import { ratio } from './pooled-rates.js';
import { registrableDomain, type DomainOwnership } from './domains.js';
import type { Run } from './runs.js';

/** Sums of one locale × domain (or URL) over a range, with the locale's own sums over the same range. */
export interface SourceSums {
  locale: string;
  domain: string;
  url?: string;
  citations: number;
  answersCiting: number;
  /** Every citation of the locale in the filtered range. */
  localeCitations: number;
  /** Every run (answer) of the locale in the filtered range. */
  localeRuns: number;
}

export interface SourceRow {
  locale: string;
  domain: string;
  url?: string;
  citations: number;
  answersCiting: number;
  citationShare: number | null;
  answerShare: number | null;
  owned: boolean;
  competitor: string | null;
}

export function sourceRow(sums: SourceSums, ownership: DomainOwnership): SourceRow {
  return {
    locale: sums.locale,
    domain: sums.domain,
    ...(sums.url === undefined ? {} : { url: sums.url }),
    citations: sums.citations,
    answersCiting: sums.answersCiting,
    citationShare: ratio(sums.citations, sums.localeCitations),
    answerShare: ratio(sums.answersCiting, sums.localeRuns),
    owned: ownership.owned.has(sums.domain),
    competitor: ownership.competitorOf.get(sums.domain) ?? null,
  };
}

/** One scan's citations per domain: how often each is cited and by how many of its runs. */
export function sourceTotalsOf(runs: readonly Run[]): Map<string, { citations: number; answersCiting: number }> {
  const totals = new Map<string, { citations: number; answersCiting: number }>();
  for (const run of runs) {
    const domains = (run.citations ?? []).map((citation) => registrableDomain(citation.url));
    for (const domain of domains) {
      const current = totals.get(domain) ?? { citations: 0, answersCiting: 0 };
      current.citations += 1;
      totals.set(domain, current);
    }
    for (const domain of new Set(domains)) totals.get(domain)!.answersCiting += 1;
  }
  return totals;
}

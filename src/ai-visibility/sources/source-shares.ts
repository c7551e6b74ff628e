// A cited source's shares, pooled like every rate of the metric contract: sums first, one
// division, per locale; a zero denominator is null. Pure, so the property tests can split a
// range any way they like and check that the parts pool to the whole.
import { ratio } from '../metrics/pooled-rates.js';
import { registrableDomain, type DomainOwnership } from './domains.js';
import { competitorsNamed, type Run } from '../answers/runs.js';

/** Sums of one locale × domain (or URL) over a range, with the locale's own sums over the same range. */
export interface SourceSums {
  locale: string;
  domain: string;
  url?: string;
  citations: number;
  answersCiting: number;
  retrievals: number;
  retrievedNotCited: number;
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
  retrievals: number;
  retrievedNotCited: number;
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
    retrievals: sums.retrievals,
    retrievedNotCited: sums.retrievedNotCited,
    owned: ownership.owned.has(sums.domain),
    competitor: ownership.competitorOf.get(sums.domain) ?? null,
  };
}

/** One scan's figures for one domain (a row of ai_source_totals). */
export interface DomainTotals {
  citations: number;
  answersCiting: number;
  /** Runs that read a page of the domain, and of those, runs that cite none of it. */
  retrievals: number;
  retrievedNotCited: number;
  /** Runs naming the brand that cite the domain. */
  brandAnswers: number;
  /** Citations and runs of runs naming a competitor but not the brand, and the competitors they name. */
  gapCitations: number;
  gapAnswers: number;
  gapCompetitors: Set<string>;
}

const emptyTotals = (): DomainTotals => ({
  citations: 0,
  answersCiting: 0,
  retrievals: 0,
  retrievedNotCited: 0,
  brandAnswers: 0,
  gapCitations: 0,
  gapAnswers: 0,
  gapCompetitors: new Set(),
});

/** One scan's citations and pages read per domain: how often each is cited, read, and by which runs. */
export function sourceTotalsOf(runs: readonly Run[]): Map<string, DomainTotals> {
  const totals = new Map<string, DomainTotals>();
  const of = (domain: string) => totals.get(domain) ?? totals.set(domain, emptyTotals()).get(domain)!;
  for (const run of runs) {
    const domains = (run.citations ?? []).map((citation) => registrableDomain(citation.url));
    const citedDomains = new Set(domains);
    const named = competitorsNamed(run);
    const gap = run.brandMentions === 0 && named.length > 0;
    for (const domain of domains) {
      const current = of(domain);
      current.citations += 1;
      if (gap) current.gapCitations += 1;
    }
    for (const domain of citedDomains) {
      const current = of(domain);
      current.answersCiting += 1;
      if (run.brandMentions > 0) current.brandAnswers += 1;
      if (gap) {
        current.gapAnswers += 1;
        for (const name of named) current.gapCompetitors.add(name);
      }
    }
    for (const domain of new Set((run.retrieved ?? []).map((page) => registrableDomain(page.url)))) {
      const current = of(domain);
      current.retrievals += 1;
      if (!citedDomains.has(domain)) current.retrievedNotCited += 1;
    }
  }
  return totals;
}

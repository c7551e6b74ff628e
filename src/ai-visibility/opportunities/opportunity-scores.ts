// The opportunities' scores: what to work on next, ranked by a documented, deterministic score
// with the figures behind it. Pure: the SQL only sums per locale, everything else is here.
// Every rate is pooled (sums first, one division, per locale); a zero denominator is null.
import { ratio } from '../metrics/pooled-rates.js';
import type { DomainOwnership } from '../sources/domains.js';
import { byCodePoint } from '../common/code-point-order.js';

/** A prompt's runs in one locale, the brand's visible runs and each competitor's. */
export interface PromptGapSums {
  locale: string;
  promptId: string;
  prompt: string;
  runs: number;
  brandVisible: number;
  competitors: readonly { name: string; visible: number }[];
}

export interface PromptOpportunity {
  locale: string;
  promptId: string;
  prompt: string;
  runs: number;
  brandVisibility: number | null;
  bestCompetitor: { name: string; visibility: number | null };
  score: number;
}

/**
 * score = runs × (best competitor's visibility − the brand's visibility), both over the same
 * runs, which is the best competitor's visible runs minus the brand's: the runs at stake. Null
 * when no competitor is ahead. The best competitor is the most visible one, ties by name.
 */
export function promptOpportunity(sums: PromptGapSums): PromptOpportunity | null {
  const best = [...sums.competitors].sort((a, b) => b.visible - a.visible || byCodePoint(a.name, b.name))[0];
  if (!best || best.visible <= sums.brandVisible) return null;
  return {
    locale: sums.locale,
    promptId: sums.promptId,
    prompt: sums.prompt,
    runs: sums.runs,
    brandVisibility: ratio(sums.brandVisible, sums.runs),
    bestCompetitor: { name: best.name, visibility: ratio(best.visible, sums.runs) },
    score: best.visible - sums.brandVisible,
  };
}

/** A domain cited in one locale by runs naming a competitor but never by a run naming the brand. */
export interface SourceGapSums {
  locale: string;
  domain: string;
  /** Citations in, and runs of, answers naming a competitor and not the brand. */
  citations: number;
  answers: number;
  competitors: string[];
}

export interface SourceOpportunity extends SourceGapSums {
  /** The competitor whose domains hold it, or null. */
  competitor: string | null;
  score: number;
}

/** score = citations in competitor-only answers. */
export const sourceOpportunity = (sums: SourceGapSums, ownership: DomainOwnership): SourceOpportunity => ({
  ...sums,
  competitor: ownership.competitorOf.get(sums.domain) ?? null,
  score: sums.citations,
});

/**
 * One of the project's own pages (normalised URL) in one locale: runs that read it, and of those, runs that
 * did not cite it.
 */
export interface PageSums {
  locale: string;
  url: string;
  domain: string;
  retrievals: number;
  retrievedNotCited: number;
}

export interface PageOpportunity extends PageSums {
  citedRate: number | null;
  score: number;
}

/**
 * citedRate = (retrievals − retrievedNotCited) / retrievals; score = retrievedNotCited; null when never read
 * without a citation.
 */
export function pageOpportunity(sums: PageSums): PageOpportunity | null {
  if (sums.retrievedNotCited <= 0) return null;
  return {
    ...sums,
    citedRate: ratio(sums.retrievals - sums.retrievedNotCited, sums.retrievals),
    score: sums.retrievedNotCited,
  };
}

/**
 * Ordered by locale, then score descending, then the item's text (prompt, domain or URL) in
 * code-point order; at most `perLocale` of each locale.
 */
export function rankPerLocale<T extends { locale: string; score: number }>(
  items: readonly T[],
  textOf: (item: T) => string,
  perLocale: number,
): T[] {
  const sorted = [...items].sort(
    (a, b) => byCodePoint(a.locale, b.locale) || b.score - a.score || byCodePoint(textOf(a), textOf(b)),
  );
  const kept = new Map<string, number>();
  return sorted.filter((item) => {
    const count = kept.get(item.locale) ?? 0;
    kept.set(item.locale, count + 1);
    return count < perLocale;
  });
}

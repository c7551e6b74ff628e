// Two periods of a project side by side per locale, each pooled on its own, with the differences. Pure.
import type { LocaleTotals } from './metrics.js';

export interface PeriodRates {
  totalRuns: number;
  visibility: number | null;
  shareOfVoice: number | null;
  averagePosition: number | null;
  sentiment: number | null;
}

export const RATE_FIELDS = ['visibility', 'shareOfVoice', 'averagePosition', 'sentiment'] as const;

export interface LocaleComparison {
  locale: string;
  current: PeriodRates | null;
  previous: PeriodRates | null;
  delta: Record<(typeof RATE_FIELDS)[number], number | null>;
}

const ratesOfTotals = (totals: LocaleTotals | undefined): PeriodRates | null =>
  totals
    ? {
        totalRuns: totals.totalRuns,
        visibility: totals.visibility,
        shareOfVoice: totals.shareOfVoice,
        averagePosition: totals.averagePosition,
        sentiment: totals.sentiment,
      }
    : null;

/** Two periods side by side per locale, each pooled on its own, with the differences. */
export function compareLocales(
  current: readonly LocaleTotals[],
  previous: readonly LocaleTotals[],
): LocaleComparison[] {
  const locales = [...new Set([...current, ...previous].map((totals) => totals.locale))].sort();
  return locales.map((locale) => {
    const now = ratesOfTotals(current.find((totals) => totals.locale === locale));
    const before = ratesOfTotals(previous.find((totals) => totals.locale === locale));
    const delta = Object.fromEntries(
      RATE_FIELDS.map((field) => [
        field,
        now?.[field] != null && before?.[field] != null ? now[field]! - before[field]! : null,
      ]),
    ) as LocaleComparison['delta'];
    return { locale, current: now, previous: before, delta };
  });
}

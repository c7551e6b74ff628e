// The filter every prompt, answer and source read shares: a date range and optional model and
// locale. Statements take it as $3..$6 after the workspace ($1) and the project ($2).
import type { DateRange } from '../../dates/civil-date.js';

export interface RunFilter {
  range: DateRange;
  model: string | null;
  locale: string | null;
}

export const runFilterValues = (filter: RunFilter) => [filter.range.from, filter.range.to, filter.model, filter.locale];

/**
 * A locale filter's condition: BCP 47 tags are equal whatever their case, so a locale stored as
 * `en-us` answers the filter `en-US` (the filter is canonical already: read-filters.ts).
 */
export const localeMatchesSql = (column: string, param: string) =>
  `(${param}::text IS NULL OR lower(${column}) = lower(${param}::text))`;

/** `date BETWEEN $3 AND $4 AND model/locale filters` over the columns of `alias`. */
export const runFilterSql = (alias: string) =>
  `${alias}.date BETWEEN $3::date AND $4::date AND ($5::text IS NULL OR ${alias}.model = $5) ` +
  `AND ${localeMatchesSql(`${alias}.locale`, '$6')}`;

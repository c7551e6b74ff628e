// The filter every prompt, answer and source read shares: a date range and optional model and
// locale. Statements take it as the named parameters from, to, model and locale.
import type { DateRange } from '../../dates/civil-date.js';

export interface RunFilter {
  range: DateRange;
  model: string | null;
  locale: string | null;
}

/** The run filter's named parameters, as a statement that reads runs declares them. */
export interface RunFilterParams {
  from: string;
  to: string;
  model: string | null;
  locale: string | null;
}

/** Renders one of the run filter's parameters (a statement's `param`, narrowed to these names). */
export type RunFilterParam = (name: keyof RunFilterParams) => string;

export const runFilterValues = (filter: RunFilter): RunFilterParams => ({
  from: filter.range.from,
  to: filter.range.to,
  model: filter.model,
  locale: filter.locale,
});

/**
 * A locale filter's condition: BCP 47 tags are equal whatever their case, so a locale stored as
 * `en-us` answers the filter `en-US` (the filter is canonical already: read-filters.ts).
 */
export const localeMatchesSql = (column: string, param: string) =>
  `(${param}::text IS NULL OR lower(${column}) = lower(${param}::text))`;

/** `date BETWEEN from AND to AND model/locale filters` over the columns of `alias` (none: unqualified). */
export const runFilterSql = (alias: string, param: RunFilterParam) => {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return (
    `${column('date')} BETWEEN ${param('from')}::date AND ${param('to')}::date ` +
    `AND (${param('model')}::text IS NULL OR ${column('model')} = ${param('model')}) ` +
    `AND ${localeMatchesSql(column('locale'), param('locale'))}`
  );
};

// The arguments of AI-visibility reads turned into filters, checked once for every door: the
// GraphQL resolvers (v1, the web app, MCP) and the streaming export call the same functions.
import { addDays, clampDate, type DateRange } from '../dates/civil-date.js';
import { invalidParameter, limitWithin } from '../errors/index.js';
import { normaliseDomain } from './domains.js';
import type { AnswerFilter } from './answer-repository.js';
import type { RunFilter } from './run-filter.js';
import type { SourceFilter, SourceGrouping } from './sources.js';
import type { SearchQueryFilter } from './search-queries.js';

export const DEFAULT_METRICS_DAYS = 30;

/**
 * dateTo defaults to today (UTC) and dateFrom to 29 days before dateTo, so no bound means the last
 * 30 days and dateFrom alone means dateFrom through today (what "every answer since" expects);
 * a default never goes before 0001-01-01.
 */
export function metricsRange(dateFrom: string | null | undefined, dateTo: string | null | undefined, now: Date): DateRange {
  const to = dateTo ?? now.toISOString().slice(0, 10);
  const from = dateFrom ?? clampDate(addDays(to, -(DEFAULT_METRICS_DAYS - 1)));
  if (from > to) throw invalidParameter('dateFrom', `dateFrom (${from}) must not be after dateTo (${to}).`);
  return { from, to };
}

export interface RunFilterArgs {
  dateFrom?: string | null | undefined;
  dateTo?: string | null | undefined;
  model?: string | null | undefined;
  locale?: string | null | undefined;
}

export function runFilterOf(args: RunFilterArgs, now: Date): RunFilter {
  if ((args.locale?.length ?? 0) > 35) throw invalidParameter('locale', 'locale is a BCP 47 tag such as en-US.');
  return { range: metricsRange(args.dateFrom, args.dateTo, now), model: args.model ?? null, locale: args.locale ?? null };
}

export interface AnswerArgs extends RunFilterArgs {
  promptId?: string | null | undefined;
  mentioned?: boolean | null | undefined;
  domain?: string | null | undefined;
}

/** The filter of the answers endpoint and its export. */
export function answerFilterOf(args: AnswerArgs, now: Date): AnswerFilter {
  let domain: string | null = null;
  if (args.domain != null) {
    domain = normaliseDomain(args.domain);
    if (!domain) throw invalidParameter('domain', 'domain must be a domain name such as reddit.com.');
  }
  return { ...runFilterOf(args, now), promptId: args.promptId ?? null, mentioned: args.mentioned ?? null, domain };
}

export const MAX_PAGE_LIMIT = 500;
export const DEFAULT_PAGE_LIMIT = 100;

/** `limit` of answers (per page) and sources (per locale): 1–500, default 100. */
export const pageLimitOf = (limit: number | null | undefined): number => limitWithin(limit, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);

export interface SourceArgs extends RunFilterArgs {
  promptId?: string | null | undefined;
  groupBy?: SourceGrouping | null | undefined;
  owned?: boolean | null | undefined;
}

export const sourceFilterOf = (args: SourceArgs, now: Date): SourceFilter => ({ ...runFilterOf(args, now), promptId: args.promptId ?? null, groupBy: args.groupBy ?? 'domain', owned: args.owned ?? false });

export interface SearchQueryArgs extends RunFilterArgs {
  promptId?: string | null | undefined;
}

export const searchQueryFilterOf = (args: SearchQueryArgs, now: Date): SearchQueryFilter => ({ ...runFilterOf(args, now), promptId: args.promptId ?? null });

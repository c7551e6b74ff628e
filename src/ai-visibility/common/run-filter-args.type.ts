// The arguments of every AI-visibility read's run filter, as the graph declares them.
import type { ArgBuilder } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { AiModelEnum } from '../../graphql/enums.js';
import { LOCALE_PATTERN, MAX_LOCALE_LENGTH } from './locales.js';
import { rangeRuleText, type RangeRule } from '../../dates/date-range.js';
import { RUN_RANGE } from './read-filters.js';

/** The filter of every AI-visibility read: a date range (within the read's rule), a model and a locale. */
export const runFilterArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>, rule: RangeRule = RUN_RANGE) => ({
  // No default: leaving the model or locale out means every one (documented, since a form that
  // sends an enum's first value for an unset field would filter silently).
  model: arg({ type: AiModelEnum, required: false, description: 'Only this model; leave it out for every model.' }),
  dateFrom: arg({
    type: 'Date',
    required: false,
    description: `First day (inclusive); default: ${rule.defaultDays - 1} days before dateTo. ${rangeRuleText(rule)}`,
  }),
  dateTo: arg({ type: 'Date', required: false, description: 'Last day (inclusive); default: today (UTC).' }),
  locale: arg.string({
    required: false,
    // What the server checks (locales.ts), for the OpenAPI document to state.
    extensions: { pattern: LOCALE_PATTERN, maxLength: MAX_LOCALE_LENGTH },
    description:
      'Only this locale: a BCP 47 tag such as en-US, in any case (en-us is en-US); leave it out for every locale. ' +
      'A tag the project does not track gives an empty answer; a malformed one is refused.',
  }),
});

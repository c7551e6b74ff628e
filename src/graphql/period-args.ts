// The two explicit ranges of a period comparison (a report's, a project's): one declaration.
import type { ArgBuilder } from '@pothos/core';
import type { builder } from './builder.js';
import type { RangeNames } from '../dates/date-range.js';

/** The arguments each range is given as: a refusal names its own (checkedRange), not dateFrom. */
export const CURRENT: RangeNames = { from: 'currentFrom', to: 'currentTo' };
export const PREVIOUS: RangeNames = { from: 'previousFrom', to: 'previousTo' };

export const periodComparisonArgs = (arg: ArgBuilder<typeof builder.$inferSchemaTypes>) => ({
  currentFrom: arg({ type: 'Date', required: true, description: 'First day of the period to report on.' }),
  currentTo: arg({ type: 'Date', required: true, description: 'Its last day (inclusive).' }),
  previousFrom: arg({ type: 'Date', required: true, description: 'First day of the period to compare with.' }),
  previousTo: arg({ type: 'Date', required: true, description: 'Its last day (inclusive).' }),
});

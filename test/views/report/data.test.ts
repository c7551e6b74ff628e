// How the report view names a metric, a dimension or a preset from its id.
import { describe, expect, it } from 'vitest';
import { words } from '../../../web/views/report/data.js';

describe('an id as words', () => {
  it('reads underscores as spaces and the initialisms marketers use in capitals', () => {
    expect(
      ['last_30_days', 'engagement_rate', 'ctr', 'cpc', 'cpa', 'cpm', 'roas', 'conversion_value'].map(words),
    ).toEqual(['last 30 days', 'engagement rate', 'CTR', 'CPC', 'CPA', 'CPM', 'ROAS', 'conversion value']);
  });

  it('leaves words that merely contain those letters alone', () => {
    expect(['actress', 'cpcs', 'roast'].map(words)).toEqual(['actress', 'cpcs', 'roast']);
  });
});

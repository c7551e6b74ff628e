// A report's definition as GraphQL, v1 and MCP's get_report show it (an absent field as null) is a
// definition its writers accept back as it is.
import { describe, expect, it } from 'vitest';
import { reportDefinitionSchema } from '../../src/reports/definition.js';

const dateConfig = { datePreset: 'last_30_days', comparePreset: 'previous_period', timezone: 'UTC' };
const kpi = { id: 'k', type: 'kpi', title: 'KPIs', provider: 'google_ads', metrics: ['clicks'] };

describe('a report definition', () => {
  it('takes back what a read shows: a null field is that field left out', () => {
    const read = { widgets: [{ ...kpi, dimension: null, granularity: null, limit: null }], dateConfig };
    const parsed = reportDefinitionSchema.safeParse(read);
    expect(parsed.success).toBe(true);
    expect(parsed.data!.widgets[0]).toEqual(kpi);
  });

  it('still refuses what a null leaves missing', () => {
    const table = { ...kpi, type: 'table', dimension: null, granularity: null, limit: null };
    const parsed = reportDefinitionSchema.safeParse({ widgets: [table], dateConfig });
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual(['a table widget needs a dimension']);
    expect(reportDefinitionSchema.safeParse({ widgets: [{ ...kpi, id: null }], dateConfig }).success).toBe(false);
  });
});

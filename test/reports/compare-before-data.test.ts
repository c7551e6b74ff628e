// A comparison period with no facts for a metric has no previous value: null, not 0 (a previous
// year before the data starts is not a year of zeros). Periods that hold some days sum those days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { ingest } from '../../src/ingest/service.js';
import { addDays } from '../../src/dates/civil-date.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

let t: TestApp;
let key: string;
let reportId: string;
const today = new Date().toISOString().slice(0, 10);
// Facts for the 45 days before today; the 15 oldest carry clicks and impressions but no cost.
const DAYS = 45;
const WITHOUT_COST = 15;
const clicksOn = (day: number) => 100 + day;

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: 'x'.repeat(40) });
  const keyed = await createKeyedWorkspace(t.database, { timezone: 'UTC' });
  key = keyed.key.secret;
  const client = await t.database.prisma.client.create({
    data: { id: newId('client'), workspaceId: keyed.workspace.id, name: 'New Customer Ltd' },
  });
  const lines = Array.from({ length: DAYS }, (_, index) => {
    const day = index + 1;
    const metrics = {
      clicks: clicksOn(day),
      impressions: 10 * clicksOn(day),
      ...(day > DAYS - WITHOUT_COST ? {} : { cost: 2 * clicksOn(day) }),
    };
    return [{}, { dimension: { campaign: 'Brand' } }].map((dimension) =>
      JSON.stringify({ client: client.id, provider: 'google_ads', date: addDays(today, -day), ...dimension, metrics }),
    );
  }).flat();
  expect(await ingest(t.database.pool, 'metrics', lines.join('\n'))).toMatchObject({
    accepted: lines.length,
    rejected: 0,
  });
  const report = await t.database.prisma.report.create({
    data: {
      id: newId('report'),
      workspaceId: keyed.workspace.id,
      clientId: client.id,
      name: 'Since onboarding',
      definition: {
        widgets: [
          { id: 'k', type: 'kpi', title: 'KPIs', provider: 'google_ads', metrics: ['clicks', 'cost', 'ctr', 'cpc'] },
          {
            id: 'daily',
            type: 'line_chart',
            title: 'Daily',
            provider: 'google_ads',
            metrics: ['clicks'],
            granularity: 'day',
          },
          {
            id: 'campaigns',
            type: 'table',
            title: 'Campaigns',
            provider: 'google_ads',
            metrics: ['clicks', 'cost'],
            dimension: 'campaign',
          },
        ],
        dateConfig: { datePreset: 'last_30_days', comparePreset: 'previous_year', timezone: 'UTC' },
      },
    },
  });
  reportId = report.id;
});
afterAll(() => t.close());

const reportData = async (query: string) => {
  const response = await t.get(`/api/v1/reports/${reportId}/data?${query}`, key);
  expect(response.status).toBe(200);
  return (await json(response)).data;
};
const kpi = (data: { kpis: { metric: string }[] }, metric: string) =>
  data.kpis.find((entry) => entry.metric === metric);
const sumOfClicks = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => clicksOn(from + index)).reduce((a, b) => a + b, 0);

describe('report data compared with a period before the data', () => {
  it('gives previous values of null, never 0, in KPIs, chart points and tables', async () => {
    const data = await reportData('datePreset=last_30_days&comparePreset=previous_year');
    expect(data.compareRange.to < addDays(today, -DAYS)).toBe(true);
    expect(kpi(data, 'clicks')).toMatchObject({ value: sumOfClicks(1, 30), previousValue: null, change: null });
    expect(data.kpis.map((entry: { previousValue: number | null }) => entry.previousValue)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(
      data.charts[0].series[0].points.filter((point: { previousValue: number | null }) => point.previousValue !== null),
    ).toEqual([]);
    expect(data.tables[0].rows).toEqual([
      { dimensionValue: 'Brand', values: [sumOfClicks(1, 30), 2 * sumOfClicks(1, 30)], previousValues: [null, null] },
    ]);
    expect(data.tables[0].totals.previousValues).toEqual([null, null]);
  });

  it('sums the days a partly covered period has, and is null per metric and per bucket that has none', async () => {
    const data = await reportData('datePreset=last_30_days&comparePreset=previous_period');
    // The previous 30 days hold days 31–45 before today, none of them with a cost.
    expect(kpi(data, 'clicks')).toMatchObject({ previousValue: sumOfClicks(31, DAYS) });
    expect(kpi(data, 'ctr')!).toMatchObject({ previousValue: 0.1 });
    expect(kpi(data, 'cost')).toMatchObject({ value: 2 * sumOfClicks(1, 30), previousValue: null, change: null });
    expect(kpi(data, 'cpc')).toMatchObject({ value: 2, previousValue: null, change: null });
    const points: { date: string; previousValue: number | null }[] = data.charts[0].series[0].points;
    // Point i compares with the i-th day of the previous range; those before the first fact have nothing.
    const previousOf = (index: number) => addDays(data.compareRange.from, index);
    points.forEach((point, index) =>
      expect(point.previousValue, point.date).toBe(
        previousOf(index) < addDays(today, -DAYS)
          ? null
          : clicksOn(Math.round((Date.parse(today) - Date.parse(previousOf(index))) / 86_400_000)),
      ),
    );
    expect(points.filter((point) => point.previousValue === null)).toHaveLength(15);
    expect(data.tables[0].rows[0].previousValues).toEqual([sumOfClicks(31, DAYS), null]);
  });

  it('has no change while its own range has no day of data (today before its facts), compared or not', async () => {
    const data = await reportData('datePreset=today&comparePreset=previous_period');
    expect([data.range.daysWithData, data.compareRange.daysWithData]).toEqual([0, 1]);
    expect(kpi(data, 'clicks')).toEqual({
      widgetId: 'k',
      metric: 'clicks',
      value: 0,
      previousValue: clicksOn(1),
      change: null,
    });
    expect(data.kpis.map((entry: { change: number | null }) => entry.change)).toEqual([null, null, null, null]);
  });
});

// Issue 5: the numbers of every widget type match a plain recomputation from the ingested
// facts, ratios are Σnumerator / Σdenominator, and ingestion is validated and idempotent.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { ingest } from '../../src/ingest/service.js';
import { addDays } from '../../src/dates/civil-date.js';
import {
  bucketStart,
  bucketsOf,
  resolveComparePreset,
  resolveDatePreset,
  type DatePreset,
  type Granularity,
} from '../../src/reports/date-presets.js';
import { seededRandom } from '../../src/demo/random.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { statementsDuring } from '../support/sql-count.js';

interface Fact {
  date: string;
  campaign: string | null;
  clicks: number;
  impressions: number;
  cost: number;
}

let t: TestApp;
let key: string;
let reportId: string;
let clientId: string;
const facts: Fact[] = [];
/**
 * The one clock of this file, the server's and the test's: a second before midnight (UTC). A
 * preset resolved from the test's own clock ("yesterday") saw another day than the request did
 * when a run crossed midnight.
 */
const NOW = new Date('2026-11-18T23:59:59.000Z');
const today = NOW.toISOString().slice(0, 10);
const CAMPAIGNS = ['Brand', 'Generic', 'Retargeting', 'Shopping'];
/** Every day of an inclusive range. */
const daysIn = ({ from, to }: { from: string; to: string }) => {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
};

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  t = await createTestApp({ INGEST_TOKEN: 'x'.repeat(40) });
  const keyed = await createKeyedWorkspace(t.database, { timezone: 'UTC' });
  key = keyed.key.secret;
  const client = await t.database.prisma.client.create({
    data: { id: newId('client'), workspaceId: keyed.workspace.id, name: 'Recompute Ltd' },
  });
  clientId = client.id;
  const random = seededRandom(7);
  const lines: string[] = [];
  for (let day = 1; day <= 800; day++) {
    const date = addDays(today, -day);
    const perCampaign = CAMPAIGNS.map((campaign) => {
      // Some days have no impressions at all: ratios over them must be null, not NaN.
      const impressions = day % 17 === 0 ? 0 : Math.round(100 + random() * 5000);
      const clicks = impressions === 0 ? 0 : Math.round(impressions * random() * 0.1);
      return { date, campaign, impressions, clicks, cost: Math.round(clicks * random() * 300) / 100 };
    });
    const total = perCampaign.reduce(
      (sum, f) => ({
        ...sum,
        clicks: sum.clicks + f.clicks,
        impressions: sum.impressions + f.impressions,
        cost: Math.round((sum.cost + f.cost) * 100) / 100,
      }),
      { date, campaign: null, clicks: 0, impressions: 0, cost: 0 } as Fact,
    );
    for (const fact of [total, ...perCampaign]) {
      facts.push(fact);
      lines.push(
        JSON.stringify({
          client: clientId,
          provider: 'google_ads',
          date,
          ...(fact.campaign ? { dimension: { campaign: fact.campaign } } : {}),
          metrics: { clicks: fact.clicks, impressions: fact.impressions, cost: fact.cost },
        }),
      );
    }
  }
  const summary = await ingest(t.database.pool, 'metrics', lines.join('\n'));
  expect(summary).toMatchObject({ accepted: lines.length, replaced: 0, rejected: 0 });
  const report = await t.database.prisma.report.create({
    data: {
      id: newId('report'),
      workspaceId: keyed.workspace.id,
      clientId,
      name: 'Everything',
      definition: {
        widgets: [
          {
            id: 'k',
            type: 'kpi',
            title: 'KPIs',
            provider: 'google_ads',
            metrics: ['clicks', 'impressions', 'ctr', 'cpc'],
          },
          {
            id: 'daily',
            type: 'line_chart',
            title: 'Daily',
            provider: 'google_ads',
            metrics: ['clicks', 'ctr'],
            granularity: 'day',
          },
          {
            id: 'weekly',
            type: 'bar_chart',
            title: 'Weekly',
            provider: 'google_ads',
            metrics: ['cost', 'ctr'],
            granularity: 'week',
          },
          {
            id: 'monthly',
            type: 'line_chart',
            title: 'Monthly',
            provider: 'google_ads',
            metrics: ['cpc'],
            granularity: 'month',
          },
          {
            id: 'campaigns',
            type: 'table',
            title: 'Campaigns',
            provider: 'google_ads',
            metrics: ['ctr', 'clicks', 'cost'],
            dimension: 'campaign',
            limit: 3,
          },
        ],
        dateConfig: { datePreset: 'last_30_days', comparePreset: 'previous_period', timezone: 'UTC' },
      },
    },
  });
  reportId = report.id;
});
afterAll(async () => {
  await t.close();
  vi.useRealTimers();
});

const sum = (rows: Fact[]) =>
  rows.reduce(
    (s, f) => ({ clicks: s.clicks + f.clicks, impressions: s.impressions + f.impressions, cost: s.cost + f.cost }),
    { clicks: 0, impressions: 0, cost: 0 },
  );
const totalsIn = (from: string, to: string, campaign: string | null = null) =>
  sum(facts.filter((f) => f.campaign === campaign && f.date >= from && f.date <= to));
const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
const metric = (name: string, s: ReturnType<typeof sum>) =>
  ({
    clicks: s.clicks,
    impressions: s.impressions,
    cost: s.cost,
    ctr: ratio(s.clicks, s.impressions),
    cpc: ratio(s.cost, s.clicks),
  })[name] ?? null;

function close(actual: number | null, expected: number | null, label: string) {
  if (expected === null) expect(actual, label).toBeNull();
  else expect(actual, label).toBeCloseTo(expected, 6);
}

describe.each<[DatePreset, 'previous_period' | 'previous_year' | 'none']>([
  ['last_30_days', 'previous_period'],
  ['last_90_days', 'previous_year'],
  ['this_month', 'previous_period'],
  ['last_quarter', 'previous_year'],
  ['last_year', 'none'],
  ['yesterday', 'previous_period'],
])('report data for %s compared with %s', (preset, compare) => {
  it('matches a recomputation from the facts for KPIs, charts and tables', async () => {
    const response = await t.get(`/api/v1/reports/${reportId}/data?datePreset=${preset}&comparePreset=${compare}`, key);
    const { data } = await json(response);
    const range = resolveDatePreset(preset, today);
    const previous = resolveComparePreset(compare, range);
    // Each range with its coverage: the facts' days inside it (none today, so this_month is partial).
    const covered = (of: { from: string; to: string }) => ({
      ...of,
      days: daysIn(of).length,
      daysWithData: new Set(facts.filter((f) => f.date >= of.from && f.date <= of.to).map((f) => f.date)).size,
    });
    expect(data.range).toEqual(covered(range));
    expect(data.compareRange).toEqual(previous ? covered(previous) : null);
    if (preset === 'this_month') expect(data.range.daysWithData).toBe(data.range.days - 1);
    // Every widget is there, so the loops below check something.
    expect(data.kpis.map((kpi: { metric: string }) => kpi.metric)).toEqual(['clicks', 'impressions', 'ctr', 'cpc']);
    expect(data.charts.map((chart: { widgetId: string }) => chart.widgetId)).toEqual(['daily', 'weekly', 'monthly']);
    for (const chart of data.charts)
      for (const series of chart.series) expect(series.points).toHaveLength(bucketsOf(range, chart.granularity).length);
    expect(data.tables).toHaveLength(1);
    expect(data.tables[0].rows).toHaveLength(3);

    const current = totalsIn(range.from, range.to);
    const before = previous ? totalsIn(previous.from, previous.to) : null;
    for (const kpi of data.kpis) {
      close(kpi.value, metric(kpi.metric, current), `kpi ${kpi.metric}`);
      close(kpi.previousValue, before ? metric(kpi.metric, before) : null, `kpi previous ${kpi.metric}`);
      const expectedChange =
        kpi.value === null || kpi.previousValue === null || kpi.previousValue === 0
          ? null
          : (kpi.value - kpi.previousValue) / Math.abs(kpi.previousValue);
      close(kpi.change, expectedChange, `change ${kpi.metric}`);
    }

    for (const chart of data.charts) {
      const granularity = chart.granularity as Granularity;
      // A bucket the range cuts says so, with the days it has in the range and how many of them have data.
      const spanOf = (start: string, of: { from: string; to: string }) => {
        const inRange = daysIn(of).filter((day) => bucketStart(day, granularity) === start);
        const whole = daysIn({ from: start, to: addDays(start, 31) }).filter(
          (day) => bucketStart(day, granularity) === start,
        ).length;
        const withData = new Set(facts.filter((f) => inRange.includes(f.date)).map((f) => f.date)).size;
        return { date: start, daysInRange: inRange.length, partial: inRange.length < whole, daysWithData: withData };
      };
      const comparedBuckets = previous ? bucketsOf(previous, granularity) : [];
      for (const series of chart.series) {
        for (const [index, point] of series.points.entries()) {
          const inBucket = facts.filter(
            (f) =>
              f.campaign === null &&
              f.date >= range.from &&
              f.date <= range.to &&
              bucketStart(f.date, granularity) === point.date,
          );
          close(point.value, metric(series.metric, sum(inBucket)), `${chart.widgetId} ${series.metric} ${point.date}`);
          const { date, daysInRange, partial, daysWithData, compareBucket } = point;
          // Paired by position with the compared range's bucket, which has its own days.
          const compared = previous && comparedBuckets[index] ? spanOf(comparedBuckets[index]!, previous) : null;
          expect({ date, daysInRange, partial, daysWithData, compareBucket }).toEqual({
            ...spanOf(point.date, range),
            compareBucket: compared,
          });
        }
        // Today has no facts: this month's last day is a gap (no data), not a day of zeros.
        if (preset === 'this_month' && granularity === 'day') expect(series.points.at(-1).daysWithData).toBe(0);
        const firstBucket = series.points[0].date;
        expect(firstBucket <= range.from).toBe(true);
      }
    }

    const [table] = data.tables;
    const ranked = CAMPAIGNS.map((campaign) => ({ campaign, s: totalsIn(range.from, range.to, campaign) }))
      .sort((a, b) => (metric('ctr', b.s) ?? -Infinity) - (metric('ctr', a.s) ?? -Infinity))
      .slice(0, 3);
    expect(table.rows.map((row: { dimensionValue: string }) => row.dimensionValue)).toEqual(
      ranked.map((r) => r.campaign),
    );
    table.rows.forEach((row: { values: (number | null)[]; previousValues: (number | null)[] }, index: number) => {
      ['ctr', 'clicks', 'cost'].forEach((name, column) => {
        close(row.values[column]!, metric(name, ranked[index]!.s), `table ${name}`);
        const prev = previous ? totalsIn(previous.from, previous.to, ranked[index]!.campaign) : null;
        close(row.previousValues[column]!, prev ? metric(name, prev) : null, `table previous ${name}`);
      });
    });
    const allCampaigns = sum(facts.filter((f) => f.campaign !== null && f.date >= range.from && f.date <= range.to));
    close(table.totals.values[0], metric('ctr', allCampaigns), 'table totals ctr');
  });
});

describe('ratios', () => {
  it('are the ratio of sums, never the mean of daily ratios, and null over zero denominators', async () => {
    const { data } = await json(
      await t.get(`/api/v1/reports/${reportId}/data?datePreset=last_90_days&comparePreset=none`, key),
    );
    const range = resolveDatePreset('last_90_days', today);
    const days = facts.filter(
      (f) => f.campaign === null && f.date >= range.from && f.date <= range.to && f.impressions > 0,
    );
    const meanOfDaily = days.reduce((s, f) => s + f.clicks / f.impressions, 0) / days.length;
    const ctr = data.kpis.find((k: { metric: string }) => k.metric === 'ctr').value;
    const pooled = sum(days);
    expect(ctr).toBeCloseTo(pooled.clicks / pooled.impressions, 10);
    expect(Math.abs(ctr - meanOfDaily)).toBeGreaterThan(1e-6);
    const daily = data.charts
      .find((c: { widgetId: string }) => c.widgetId === 'daily')
      .series.find((s: { metric: string }) => s.metric === 'ctr');
    const zeroDay = facts.find(
      (f) => f.campaign === null && f.impressions === 0 && f.date >= range.from && f.date <= range.to,
    )!;
    expect(daily.points.find((p: { date: string }) => p.date === zeroDay.date)).toEqual({
      date: zeroDay.date,
      value: null,
      previousValue: null,
      daysInRange: 1,
      partial: false,
      daysWithData: 1,
      compareBucket: null,
    });
  });
});

describe('query sharing', () => {
  it(
    'answers a report of five widgets and two ranges with one aggregation statement after one read of ' + 'the report',
    async () => {
      await t.get(`/api/v1/reports/${reportId}/data`, key); // warm the key cache
      // Presets no other test asks for, so the data is computed, not served from the data cache.
      const statements = await statementsDuring(() =>
        t.get(`/api/v1/reports/${reportId}/data?datePreset=last_14_days&comparePreset=previous_year`, key),
      );
      expect(statements.filter((text) => text.includes('metric_facts'))).toHaveLength(1);
      // With the data cache on, the version probe reads the versions alone (a hit needs nothing else);
      // on this miss the report is read once after it, then its data.
      expect(statements).toHaveLength(3);
      expect(statements[0]).not.toContain('definition::text');
    },
  );
});

describe('metric ingestion', () => {
  const post = (body: string, query = '') =>
    t.app.fetch(
      new Request(`http://test.local/internal/ingest/metrics${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${'x'.repeat(40)}` },
        body,
      }),
    );

  it('replaces a re-sent fact instead of duplicating it', async () => {
    const line = (clicks: number) =>
      JSON.stringify({
        client: clientId,
        provider: 'meta_ads',
        date: '2020-01-01',
        metrics: { clicks, impressions: 10 },
      });
    expect((await json(await post(line(1)))).data).toMatchObject({ accepted: 1, replaced: 0 });
    expect((await json(await post(line(2)))).data).toMatchObject({ accepted: 0, replaced: 1 });
    const rows = await t.database.pool.query(
      "SELECT clicks FROM metric_facts WHERE client_id = $1 AND provider = 'meta_ads' AND date = '2020-01-01'",
      [clientId],
    );
    expect(rows.rows).toEqual([{ clicks: 2 }]);
  });

  it('leaves an identical re-send alone: counted unchanged, and report data keeps its ETag', async () => {
    const line = JSON.stringify({ client: clientId, provider: 'meta_ads', date: '2020-02-01', metrics: { clicks: 5 } });
    expect((await json(await post(line))).data).toMatchObject({ accepted: 1, replaced: 0, unchanged: 0 });
    const data = await t.get(`/api/v1/reports/${reportId}/data`, key);
    const etag = data.headers.get('etag')!;
    expect((await json(await post(line))).data).toMatchObject({ accepted: 0, replaced: 0, unchanged: 1 });
    const again = await t.get(`/api/v1/reports/${reportId}/data`, key, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const changed = line.replace('"clicks":5', '"clicks":6');
    expect((await json(await post(changed))).data).toMatchObject({ accepted: 0, replaced: 1, unchanged: 0 });
    expect((await t.get(`/api/v1/reports/${reportId}/data`, key, { headers: { 'if-none-match': etag } })).status).toBe(
      200,
    );
  });

  it('refuses a file with bad lines, naming each line, and writes nothing', async () => {
    const good = JSON.stringify({
      client: clientId,
      provider: 'google_ads',
      date: '2019-06-01',
      metrics: { clicks: 1 },
    });
    const body = [
      good,
      '{not json',
      JSON.stringify({ client: clientId, provider: 'google_ads', date: '2019-02-30', metrics: { clicks: 1 } }),
      JSON.stringify({ client: clientId, provider: 'tiktok', date: '2019-06-01', metrics: { clicks: 1 } }),
      JSON.stringify({ client: clientId, provider: 'google_ads', date: '2019-06-02', metrics: { sessions: 1 } }),
      JSON.stringify({
        client: 'cli_AAAAAAAAAAAAAAAAAAAA',
        provider: 'google_ads',
        date: '2019-06-02',
        metrics: { clicks: -1 },
      }),
      JSON.stringify({
        client: clientId,
        provider: 'google_ads',
        date: '2019-06-03',
        dimension: { planet: 'Mars' },
        metrics: { clicks: 1 },
      }),
      good,
    ].join('\n');
    const response = await post(body);
    expect(response.status).toBe(400);
    const error = (await json(response)).error;
    expect(error.code).toBe('invalid_body');
    expect(error.lines.map((l: { line: number }) => l.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(error.lines.find((l: { line: number }) => l.line === 8).message).toContain('line 1');
    expect(error.lines.find((l: { line: number }) => l.line === 6).message).toContain('a metric is at least 0');
    const stored = await t.database.pool.query(
      "SELECT count(*)::int AS n FROM metric_facts WHERE client_id = $1 AND date >= '2019-01-01' AND date < " +
        "'2020-01-01'",
      [clientId],
    );
    expect(stored.rows[0].n).toBe(0);
  });

  it('imports the valid lines with skipInvalid, and needs the service token', async () => {
    const body = [
      JSON.stringify({ client: clientId, provider: 'google_ads', date: '2018-01-01', metrics: { clicks: 3 } }),
      'oops',
    ].join('\n');
    expect((await json(await post(body, '?skipInvalid=true'))).data).toMatchObject({ accepted: 1, rejected: 1 });
    // In any case, as at every door (Python writes True); anything else is refused.
    const again = await post(body, '?skipInvalid=TRUE');
    expect([again.status, (await json(again)).data.rejected]).toEqual([200, 1]);
    for (const unclear of ['yes', '1', 'on']) {
      const refused = await post(body, `?skipInvalid=${unclear}`);
      expect(refused.status, unclear).toBe(400);
      expect((await json(refused)).error).toMatchObject({ code: 'invalid_parameter', param: 'skipInvalid' });
    }
    const anonymous = await t.app.fetch(
      new Request('http://test.local/internal/ingest/metrics', { method: 'POST', body }),
    );
    expect(anonymous.status).toBe(401);
    expect(
      (
        await t.app.fetch(
          new Request('http://test.local/internal/ingest/metrics', {
            headers: { authorization: `Bearer ${'x'.repeat(40)}` },
          }),
        )
      ).status,
    ).toBe(405);
  });
});

// Every figure a view shows is v1's figure, in its meaning: the numbers read off the three web
// pages against v1's JSON for the same report or project, rounded by the one rule of the views
// (support/views.ts restates it); a change coloured and worded by its metric's direction from
// the catalogue; the coverage of a compared period (and of an AI-visibility range) and the partial
// weeks said on the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { en, figure, seededViewsWorkspace, v1Get } from '../support/views.js';
import { useListeningApp } from '../support/listen.js';
import { chromiumAvailable, launchChromium } from '../support/browser.js';
import { catalog, type ProviderId } from '../../src/reports/index.js';

const served = useListeningApp();
let browser: Browser;
let apiKey: string;
let cookie: string;
let reportId: string;
let projectId: string;

const v1 = (route: string) => v1Get(served.baseUrl, route, apiKey);

interface Kpi {
  widgetId: string;
  metric: string;
  value: number | null;
  change: number | null;
}
interface Coverage {
  days: number;
  daysWithData: number;
}

async function page(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  await context.addCookies([{ name, value, url: served.baseUrl }]);
  const opened = await context.newPage();
  await opened.goto(`${served.baseUrl}${path}`);
  return opened;
}

/** The report page showing v1's data for these presets (chosen in its own controls). */
async function reportAt(datePreset: string, comparePreset: string) {
  const data = (await v1(`/reports/${reportId}/data?datePreset=${datePreset}&comparePreset=${comparePreset}`)).data;
  const { widgets } = (await v1(`/reports/${reportId}`)).data.definition as {
    widgets: { id: string; provider: string }[];
  };
  const view = await page(`/app/reports/${reportId}`);
  await view.locator('.kpi').first().waitFor({ timeout: 15_000 });
  // Each choice re-renders the page; the next is made in the page it rendered (its dates shown).
  const day = (date: string) =>
    new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
  const span = (range: { from: string; to: string }) => `${day(range.from)} – ${day(range.to)}`;
  await view.selectOption('select[aria-label="Dates"]', datePreset);
  await expect
    .poll(() => view.locator('.sub').first().textContent(), { timeout: 15_000 })
    .toMatch(new RegExp(`^${span(data.range)}`));
  await view.selectOption('select[aria-label="Compare with"]', comparePreset);
  await expect
    .poll(() => view.locator('.sub').first().textContent(), { timeout: 15_000 })
    .toBe(`${span(data.range)} · compared with ${span(data.compareRange)} · ${data.timezone} days`);
  const providerOf = (widgetId: string) => widgets.find((widget) => widget.id === widgetId)!.provider;
  // A period without any data has no figure yet (its sums would read 0): "–".
  const empty = data.range.daysWithData === 0;
  const expected = (data.kpis as Kpi[]).map((kpi) =>
    empty ? '–' : figure(providerOf(kpi.widgetId), kpi.metric, kpi.value, data.currency),
  );
  await expect.poll(() => view.locator('.kpi .value').allTextContents(), { timeout: 15_000 }).toEqual(expected);
  return { data, providerOf, view };
}

/** A change as the views write it for an en-US person: one decimal of a percentage, always. */
const changeText = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** What the catalogue says a change of this sign is: better, worse, or neither (none that reads 0.0 %). */
function verdict(provider: string, metric: string, change: number | null): string | null {
  const { direction } = catalog[provider as ProviderId].metrics[metric]!;
  if (change === null || changeText.format(Math.abs(change)) === '0.0%' || direction === 'neutral') return null;
  return change > 0 === (direction === 'higher') ? 'better' : 'worse';
}

type Span = { date: string; daysInRange: number; partial: boolean; daysWithData: number };
type Points = (Span & { value: number | null; compareBucket: Span | null })[];
/** What a screen reader says of each KPI's change; whether every change it can say is marked "partial data". */
const changeLabels = (view: Page) =>
  view
    .locator('.kpi .delta[aria-label]')
    .evaluateAll((deltas) => deltas.map((delta) => delta.getAttribute('aria-label')!));
const allPartial = (labels: string[]) =>
  labels.filter((label) => label !== 'no change to show').every((label) => label.endsWith('partial data'));

/** A bucket the views name under a chart: cut by the range, or with days without data. */
const lacking = (span: Span) => span.partial || span.daysWithData < span.daysInRange;

beforeAll(async () => {
  if (!chromiumAvailable) return;
  let workspaceId: string;
  ({ apiKey, cookie, reportId, projectId, workspaceId } = await seededViewsWorkspace(served));
  // Conversions an attribution split: the latest day's total has a fraction, which every view shows as v1 gives it.
  await served.t.database.pool.query(
    `UPDATE metric_facts SET conversions = conversions + 0.4
     WHERE provider = 'google_analytics' AND dimension = ''
       AND client_id IN (SELECT id FROM clients WHERE workspace_id = $1)
       AND date = (SELECT max(date) FROM metric_facts WHERE provider = 'google_analytics')`,
    [workspaceId],
  );
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!chromiumAvailable)('the figures on the pages', () => {
  it(
    "report: KPIs and table totals are v1's, rounded alike; each change is judged by " +
      "its metric's direction, in words",
    async () => {
      const { data, providerOf, view } = await reportAt('last_7_days', 'previous_period');
      // Both weeks lie inside the seeded 40 days: a like-for-like comparison.
      expect(data.range).toMatchObject({ days: 7, daysWithData: 7 });
      expect(data.compareRange).toMatchObject({ days: 7, daysWithData: 7 });
      expect(await view.locator('.notice.coverage').count()).toBe(0);
      const kpis = data.kpis as Kpi[];
      const conversions = kpis.find(
        (kpi) => kpi.metric === 'conversions' && providerOf(kpi.widgetId) === 'google_analytics',
      );
      expect(Number.isInteger(conversions?.value)).toBe(false);
      // Money names the client's currency (Northwind Outdoor reports in dollars): "$772.11", not a bare 772.11.
      expect(data.currency).toBe('USD');
      expect((await view.locator('.kpi .value').allTextContents()).filter((text) => text.startsWith('$'))).not.toEqual(
        [],
      );
      expect(await view.locator('.kpi .value').allTextContents()).toContain(en.number.format(conversions!.value!));
      const judged = kpis.map((kpi) => verdict(providerOf(kpi.widgetId), kpi.metric, kpi.change));
      // The demo report holds a metric of each direction with a change: cpc or cpm (lower is better), cost (neutral).
      expect(
        kpis.some(
          (kpi, index) =>
            judged[index] && catalog[providerOf(kpi.widgetId) as ProviderId].metrics[kpi.metric]!.direction === 'lower',
        ),
      ).toBe(true);
      expect(kpis.some((kpi) => kpi.metric === 'cost' && kpi.change)).toBe(true);
      const shown = await view.locator('.kpi').evaluateAll((tiles) =>
        tiles.map((tile) => {
          const delta = tile.querySelector('.delta')!;
          return {
            classes: [...delta.classList].filter((name) => name !== 'delta'),
            label: delta.getAttribute('aria-label'),
          };
        }),
      );
      expect(shown).toHaveLength(kpis.length);
      shown.forEach(({ classes, label }, index) => {
        const word = judged[index];
        expect(classes).toEqual(word ? [word] : []);
        // Not colour alone: the word is in the text a screen reader speaks.
        if (word) expect(label).toContain(word);
        else expect(label).not.toMatch(/better|worse/);
      });
      // Each table names its source (the demo's "Devices" is Meta Ads'), whatever its title says.
      const captions = await view.locator('table:not(figure table) caption').allTextContents();
      const sources = (data.tables as { widgetId: string }[]).map(
        (table) => catalog[providerOf(table.widgetId) as ProviderId].label,
      );
      expect(captions.map((caption, index) => caption.includes(sources[index]!))).toEqual(sources.map(() => true));
      // And each KPI ("sessions · Traffic · Google Analytics": "Traffic" alone did not say whose sessions).
      const kpiNames = await view.locator('.kpi .name').allTextContents();
      const kpiSources = (data.kpis as Kpi[]).map((kpi) => catalog[providerOf(kpi.widgetId) as ProviderId].label);
      expect(kpiNames.map((name, index) => name.includes(kpiSources[index]!))).toEqual(kpiSources.map(() => true));
      // So does each chart (a chart per metric): "Spend by week · cost" was Google Ads' or Meta Ads' alike.
      const chartSources = (data.charts as { widgetId: string; series: unknown[] }[]).flatMap((chart) =>
        chart.series.map(() => catalog[providerOf(chart.widgetId) as ProviderId].label),
      );
      const chartCaptions = await view.locator('figure.chart figcaption').allTextContents();
      expect(chartCaptions.map((caption, index) => caption.includes(chartSources[index]!))).toEqual(
        chartSources.map(() => true),
      );
      // Every row and the total of every table (not the charts' own): each cell starts with v1's figure (its change
      // follows).
      type TableData = {
        widgetId: string;
        columns: string[];
        rows: { dimensionValue: string; values: (number | null)[] }[];
        totals: { values: (number | null)[] };
      };
      for (const [index, table] of (data.tables as TableData[]).entries()) {
        const shownRows = await view
          .locator('table:not(figure table)')
          .nth(index)
          .locator('tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent!)));
        const expectedRows = [...table.rows, { dimensionValue: 'Total', values: table.totals.values }].map((row) => [
          row.dimensionValue,
          ...row.values.map((value, column) =>
            figure(providerOf(table.widgetId), table.columns[column]!, value, data.currency),
          ),
        ]);
        expect(
          shownRows.map((cells, row) =>
            cells.map((cell, column) => cell.slice(0, expectedRows[row]?.[column]?.length)),
          ),
        ).toEqual(expectedRows);
      }
      await view.context().close();
    },
  );

  it(
    'report: a compared period with data for part of its days says so, and its ' +
      'changes are not called better or worse',
    async () => {
      const { data, view } = await reportAt('last_30_days', 'previous_period');
      const coverage = data.compareRange as Coverage;
      // The seed's 40 days cover the last third of the previous 30.
      expect(coverage.days).toBe(30);
      expect(coverage.daysWithData).toBeGreaterThan(0);
      expect(coverage.daysWithData).toBeLessThan(30);
      expect(await view.locator('.notice.coverage').textContent()).toContain(
        `The compared period has data for ${coverage.daysWithData} of 30 days`,
      );
      expect(await view.locator('.delta.better, .delta.worse').count()).toBe(0);
      const labels = await changeLabels(view);
      expect(allPartial(labels)).toBe(true);
      // Weekly bars: the weeks the range cuts are v1's partial points, named under the chart and in its table,
      // each with the compared week it is set against; so is a whole week set against a cut one.
      const charts = data.charts as { granularity: string; series: { points: Points }[] }[];
      const figures = view.locator('figure.chart');
      expect(await figures.count()).toBe(charts.flatMap((chart) => chart.series).length);
      let index = 0;
      let named = 0;
      for (const chart of charts) {
        const written = new Intl.DateTimeFormat(
          'en-US',
          chart.granularity === 'month'
            ? { month: 'short', year: 'numeric', timeZone: 'UTC' }
            : { dateStyle: 'medium', timeZone: 'UTC' },
        );
        const label = (date: string) => written.format(new Date(`${date}T00:00:00Z`));
        for (const line of chart.series) {
          const figure = figures.nth(index++);
          const cut = line.points.filter(lacking);
          const rows = await figure.locator('details tr').allTextContents();
          expect(rows.filter((row) => row.includes('(partial:')).length).toBe(cut.length);
          const comparedLacking = (before: Span | null) =>
            before !== null && before.daysWithData > 0 && lacking(before);
          const against = line.points.filter((point) => lacking(point) || comparedLacking(point.compareBucket));
          const note = figure.locator('.note.partial');
          expect(await note.count()).toBe(against.length ? 1 : 0);
          // Only the first few are named under the chart; the rest are in its table.
          for (const point of against.slice(0, 6)) {
            const before = point.compareBucket;
            expect(await note.textContent()).toContain(`${label(point.date)}${lacking(point) ? ' (' : ''}`);
            const compared = before ? ` compared with ${label(before.date)} (` : ' compared with no ';
            expect(await note.textContent()).toContain(compared);
            if (comparedLacking(before)) named++;
          }
        }
      }
      // The demo's weekly widgets start a range of 30 days in a cut week, set against a cut week of the compared range.
      expect(named).toBeGreaterThan(0);
      await view.context().close();
    },
  );

  it('report: a current period without data is not judged either: no figure, no change, no point at 0', async () => {
    // The seed's last day is yesterday: today has no data, yesterday has all of it.
    const { data, view } = await reportAt('today', 'previous_period');
    expect(data.range).toMatchObject({ days: 1, daysWithData: 0 });
    expect(data.compareRange).toMatchObject({ days: 1, daysWithData: 1 });
    const notice = await view.locator('.notice.coverage').textContent();
    expect(notice).toContain('The current period has data for 0 of 1 day.');
    expect(await view.locator('.delta.better, .delta.worse').count()).toBe(0);
    // No change is shown (v1 has none either): each tile says there is no data yet.
    expect(await changeLabels(view)).toEqual([]);
    const said = await view.locator('.kpi .delta:not([aria-label])').allTextContents();
    expect(said.filter((text) => text === 'no data yet')).toHaveLength(data.kpis.length);
    // Each chart is one day, week or month: its figures as bars, the day without data written "–", not 0.
    const charts = data.charts as { series: { metric: string; points: Points }[] }[];
    const figures = view.locator('figure.chart');
    expect(await figures.locator('canvas').count()).toBe(0);
    let index = 0;
    for (const line of charts.flatMap((chart) => chart.series)) {
      const [point] = line.points;
      expect(point).toMatchObject({ daysWithData: 0 });
      const cells = await figures.nth(index++).locator('details tbody tr td').allTextContents();
      expect(cells[0]).toBe('–');
    }
    expect(charts.some((chart) => chart.series.some((line) => line.points[0]!.value === 0))).toBe(true);
    await view.context().close();
  });

  it("AI visibility: every tile and by-model figure is v1's for the locale shown", async () => {
    const view = await page(`/app/ai-visibility/${projectId}`);
    await view.locator('.kpi').first().waitFor({ timeout: 15_000 });
    const locale = await view.locator('select[aria-label="Locale"]').inputValue();
    const totals = (await v1(`/ai-visibility/projects/${projectId}/metrics`)).data.totals.find(
      (row: { locale: string }) => row.locale === locale,
    );
    const rate = (value: number | null) => (value === null ? '–' : en.percent.format(value));
    const decimal = (value: number | null) => (value === null ? '–' : en.decimal.format(value));
    // Its days are UTC days, whatever the reader's zone: said beside the range.
    expect(await view.locator('.sub').first().textContent()).toMatch(/ · UTC days$/);
    expect(await view.locator('.kpi .value').allTextContents()).toEqual([
      rate(totals.visibility),
      rate(totals.shareOfVoice),
      decimal(totals.averagePosition),
      decimal(totals.sentiment),
      en.number.format(totals.totalRuns),
    ]);
    const rows = await view
      .locator('table')
      .filter({ has: view.locator('caption', { hasText: /^By model,/ }) })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
    expect(rows).toEqual(
      totals.byModel.map(
        (row: {
          model: string;
          totalRuns: number;
          visibility: number | null;
          shareOfVoice: number | null;
          averagePosition: number | null;
          sentiment: number | null;
        }) => [
          row.model,
          en.number.format(row.totalRuns),
          rate(row.visibility),
          rate(row.shareOfVoice),
          decimal(row.averagePosition),
          decimal(row.sentiment),
        ],
      ),
    );
    await view.context().close();
  });

  it("AI visibility: over 365 days, the days with data are said, as many as v1's rows hold", async () => {
    const view = await page(`/app/ai-visibility/${projectId}`);
    await view.locator('.kpi').first().waitFor({ timeout: 15_000 });
    await view.selectOption('select[aria-label="Range"]', '365');
    const locale = await view.locator('select[aria-label="Locale"]').inputValue();
    await expect.poll(() => new URL(view.url()).searchParams.get('dateFrom')).toMatch(/^\d{4}-/);
    const range = new URL(view.url()).searchParams;
    const query = `dateFrom=${range.get('dateFrom')}&dateTo=${range.get('dateTo')}&locale=${locale}&limit=1000`;
    const metrics = await v1(`/ai-visibility/projects/${projectId}/metrics?${query}`);
    expect(metrics.meta.truncated).toBe(false);
    const days = new Set((metrics.data.rows as { date: string }[]).map((row) => row.date)).size;
    expect(days).toBeGreaterThan(0);
    expect(days).toBeLessThan(365);
    await expect
      .poll(() => view.locator('.notice.coverage').textContent(), { timeout: 15_000 })
      .toBe(
        `This range has data for ${days} of 365 days (those scanned in ${locale}): its figures cover those days only.`,
      );
    await view.context().close();
  });

  it("answers: each answer's sentiment and position are v1's, sentiment as its word", async () => {
    const view = await page(`/app/ai-visibility/${projectId}/answers`);
    await view.locator('article.answer').first().waitFor({ timeout: 15_000 });
    const answers = (await v1(`/ai-visibility/projects/${projectId}/answers?limit=20`)).data as {
      sentiment: string | null;
      position: number | null;
    }[];
    const metas = await view.locator('article.answer > .meta:first-child').allTextContents();
    expect(metas).toHaveLength(answers.length);
    expect(answers.some((answer) => answer.sentiment !== null)).toBe(true);
    metas.forEach((meta, index) => {
      const { sentiment, position } = answers[index]!;
      expect(
        meta.endsWith(
          [
            position !== null ? ` · position ${en.number.format(position)}` : '',
            sentiment !== null ? ` · sentiment ${sentiment}` : '',
          ].join(''),
        ),
      ).toBe(true);
    });
    await view.context().close();
  });
});

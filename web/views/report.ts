// The report view: a report's KPIs with their change against the comparison period, its charts
// (time series and bars, the comparison dashed) and tables, with the date preset and the
// comparison switchable from inside the view.
import './shared/theme.css';
import { change as delta, missingData, type Direction } from './shared/change.js';
import { chart, type Series } from './shared/charts.js';
import { bdi, h, table } from './shared/dom.js';
import type { Formats } from './shared/format.js';
import { startView, type Args } from './shared/host.js';
import { at, text } from './shared/read.js';

interface ReportArgs extends Args {
  id: string;
  datePreset?: string;
  comparePreset?: string;
}

interface Widget {
  id: string;
  type: string;
  title: string;
  provider: string;
  metrics: string[];
  dimension: string | null;
}
interface Kpi {
  widgetId: string;
  metric: string;
  value: number | null;
  previousValue: number | null;
  change: number | null;
}
/** A day, week or month of a range: how many of its days the range holds, and how many of those have data. */
interface Span {
  date: string;
  daysInRange: number;
  partial: boolean;
  daysWithData: number;
}
interface Point extends Span {
  value: number | null;
  previousValue: number | null;
  compareBucket: Span | null;
}
interface ChartData {
  widgetId: string;
  type: string;
  granularity: string | null;
  series: { metric: string; points: Point[] }[];
}
/** A range with how many of its days have data. */
interface CoveredRange {
  from: string;
  to: string;
  days: number;
  daysWithData: number;
}
interface TableData {
  widgetId: string;
  dimension: string;
  columns: string[];
  rows: { dimensionValue: string; values: (number | null)[]; previousValues: (number | null)[] | null }[];
  totals: { values: (number | null)[]; previousValues: (number | null)[] | null };
}
interface ReportData {
  report: {
    data: {
      id: string;
      name: string;
      definition: { widgets: Widget[]; dateConfig: { datePreset: string; comparePreset: string; timezone: string } };
    } | null;
  } | null;
  reportData: {
    data: {
      reportId: string;
      range: CoveredRange;
      compareRange: CoveredRange | null;
      kpis: Kpi[];
      charts: ChartData[];
      tables: TableData[];
    } | null;
  } | null;
  metricCatalog: {
    providers: { id: string; label: string; metrics: { id: string; unit: string; direction: Direction }[] }[];
  };
}

/** The report's range and the one it is compared with (null without a comparison). */
interface Ranges {
  current: CoveredRange;
  compared: CoveredRange | null;
}
/** The day `days` after an ISO date. */
const laterBy = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A widget's metric as the catalogue declares it: written in its unit (a rate of 0.03 reads 3 %), judged by its
 * direction.
 */
type Written = (value: number | null | undefined) => string;
interface MetricMeaning {
  format: Written;
  axis: Written;
  direction: Direction;
  ranked: boolean;
}
type MeaningOf = (widgetId: string, metric: string) => MetricMeaning;
/**
 * How a change is shown: by the metric's direction, unless `unlike` says why the periods are not
 * like for like; `empty` when the current period has no data at all (its figures are not 0 yet).
 */
interface Changes {
  f: Formats;
  unlike: string | null;
  empty: boolean;
}

const PRESETS = [
  'today',
  'yesterday',
  'last_7_days',
  'last_14_days',
  'last_28_days',
  'last_30_days',
  'last_90_days',
  'last_365_days',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'this_quarter',
  'last_quarter',
  'this_year',
  'last_year',
];
const COMPARISONS = ['none', 'previous_period', 'previous_year'];
const words = (id: string) => id.replace(/_/g, ' ');

startView<ReportArgs, ReportData>({
  title: 'Signalboard report',
  tool: 'view_report',
  argsFrom(input, result) {
    const id = text(input.id) ?? text(at(result, 'reportData', 'data', 'reportId'));
    if (!id) return null;
    const datePreset = text(input.datePreset);
    const comparePreset = text(input.comparePreset);
    return { id, ...(datePreset ? { datePreset } : {}), ...(comparePreset ? { comparePreset } : {}) };
  },
  render(root, data, args, { formats: f, reload }) {
    const report = data.report?.data;
    const numbers = data.reportData?.data;
    if (!report || !numbers) return void root.append(h('p', { class: 'notice' }, 'No such report in this workspace.'));
    const { dateConfig, widgets } = report.definition;
    const titleOf = new Map(widgets.map((widget) => [widget.id, widget.title]));
    const providerOf = new Map(widgets.map((widget) => [widget.id, widget.provider]));
    const declared = new Map(
      data.metricCatalog.providers.flatMap((provider) =>
        provider.metrics.map((metric) => [`${provider.id}.${metric.id}`, metric]),
      ),
    );
    const meaningOf: MeaningOf = (widgetId, metric) => {
      const entry = declared.get(`${providerOf.get(widgetId)}.${metric}`);
      const format = f.ofUnit(entry?.unit);
      // An axis tick is a round number: money's cents or a ratio's fixed places there would only widen it.
      const axis = entry?.unit === 'percent' ? f.percent : entry?.unit === 'count' ? format : f.number;
      const direction = entry?.direction ?? 'neutral';
      // A rank (1 is first) is drawn with 1 at the top: a worse position goes down the chart.
      return { format, axis, direction, ranked: direction === 'lower' && metric.endsWith('position') };
    };
    const sourceOf = (widgetId: string) => {
      const provider = providerOf.get(widgetId) ?? '';
      return data.metricCatalog.providers.find((declaring) => declaring.id === provider)?.label ?? provider;
    };
    const titled = (widgetId: string) => titleOf.get(widgetId) ?? widgetId;
    const select = (label: string, values: string[], chosen: string, choose: (value: string) => void) =>
      h(
        'label',
        {},
        label,
        h(
          'select',
          { 'aria-label': label, onchange: (event) => choose((event.target as HTMLSelectElement).value) },
          values.map((value) => h('option', { value, ...(value === chosen ? { selected: true } : {}) }, words(value))),
        ),
      );
    const compared = numbers.compareRange;
    const missing = missingData(numbers.range, compared, f);
    const empty = numbers.range.daysWithData === 0;
    const changes: Changes = { f, unlike: compared && missing.length ? missing.join(' and ') : null, empty };
    root.append(
      h('h1', {}, report.name),
      h(
        'p',
        { class: 'sub' },
        `${f.day(numbers.range.from)} – ${f.day(numbers.range.to)}`,
        compared ? ` · compared with ${f.day(compared.from)} – ${f.day(compared.to)}` : '',
      ),
      h(
        'div',
        { class: 'controls' },
        select('Dates', PRESETS, args.datePreset ?? dateConfig.datePreset, (datePreset) =>
          reload({ ...args, datePreset }),
        ),
        select('Compare with', COMPARISONS, args.comparePreset ?? dateConfig.comparePreset, (comparePreset) =>
          reload({ ...args, comparePreset }),
        ),
      ),
    );
    if (missing.length) root.append(coverageNotice(missing, Boolean(compared), empty));
    if (numbers.kpis.length)
      root.append(
        h(
          'ul',
          { class: 'kpis', 'aria-label': 'KPIs' },
          numbers.kpis.map((kpi) =>
            kpiTile(kpi, titleOf.get(kpi.widgetId), meaningOf(kpi.widgetId, kpi.metric), changes),
          ),
        ),
      );
    const ranges = { current: numbers.range, compared };
    const charts = numbers.charts.flatMap((data) => chartsOf(data, titled(data.widgetId), ranges, meaningOf, f));
    if (charts.length) root.append(h('div', { class: 'grid' }, charts));
    for (const data of numbers.tables) {
      const shown = tableOf(data, titled(data.widgetId), sourceOf(data.widgetId), meaningOf, changes);
      root.append(h('div', { class: 'scroll' }, shown));
    }
  },
});

/** Which periods lack data ("the current period has data for 0 of 1 day"), and what that does to the changes. */
function coverageNotice(missing: string[], compared: boolean, empty: boolean) {
  const sentences = missing.map((phrase) => `${phrase[0]!.toUpperCase()}${phrase.slice(1)}.`);
  const consequence = empty
    ? ' Its figures read "no data yet", not 0, and no change is shown.'
    : compared
      ? ' The periods are not like for like: changes are marked "partial data", not called better or worse.'
      : '';
  return h('p', { class: 'notice coverage', role: 'note' }, sentences.join(' '), consequence);
}

/** A KPI: its metric's name first (always in view), the widget's title after it (clamped when long). */
function kpiTile(kpi: Kpi, title: string | undefined, { format, direction }: MetricMeaning, changes: Changes) {
  const metric = words(kpi.metric);
  const named = title && title !== kpi.metric ? title : null;
  return h(
    'li',
    { class: 'kpi' },
    h(
      'div',
      { class: 'name', title: named ? `${metric} · ${named}` : metric },
      metric,
      named ? [' · ', bdi(named)] : null,
    ),
    h('div', { class: 'value' }, changes.empty ? '–' : format(kpi.value)),
    changes.empty ? noDataYet() : delta(kpi.change, direction, changes.f, changes.unlike),
    kpi.previousValue !== null ? h('span', { class: 'delta' }, ` (was ${format(kpi.previousValue)})`) : null,
  );
}

/** In place of a figure and its change over a period without any data: its sums would read 0, its change -100 %. */
const noDataYet = () => h('span', { class: 'delta', title: 'The period has no data yet.' }, 'no data yet');

/**
 * One chart per metric (metrics of a widget differ in scale: cost and ROAS), the comparison
 * period dashed beside it. A bucket without data is a gap, not 0; one the range cuts or with days
 * without data is named, with the compared bucket it is set against.
 */
function chartsOf(data: ChartData, title: string, ranges: Ranges, meaningOf: MeaningOf, f: Formats) {
  const grain = data.granularity ?? 'day';
  const label = grain === 'month' ? f.month : f.day;
  // A week's or month's point sits at its first day; the axis marks those days.
  const dates = { day: f.shortDay, month: f.month, atPoints: grain !== 'day' };
  const points = data.series[0]?.points ?? [];
  const lacking = (span: Span) => span.partial || span.daysWithData < span.daysInRange;
  // A bucket the range holds one day of is that day, named by it rather than by its week's or month's first day.
  const nameOf = (span: Span, range: { from: string }) =>
    span.daysInRange === 1 ? f.day(span.date < range.from ? range.from : span.date) : label(span.date);
  // A cut bucket is told by the days it holds: a month's 7 days here and 7 there are not the same days.
  const told = (span: Span, range: { from: string }) => {
    if (span.daysWithData === 0) return 'no data';
    if (span.daysInRange === 1) return `1 day of its ${grain}`;
    const from = span.date < range.from ? range.from : span.date;
    const days = `${f.shortDay(from)} – ${f.shortDay(laterBy(from, span.daysInRange - 1))}`;
    return [
      span.partial ? `${days}, ${f.days(span.daysInRange)}` : `whole ${grain}`,
      span.daysWithData < span.daysInRange ? `${f.number(span.daysWithData)} with data` : null,
    ]
      .filter(Boolean)
      .join(', ');
  };
  // Named: a bucket lacking days, with what it is compared with, and a compared bucket lacking some
  // (one with none is a gap in the dashed line, the period's coverage said above the KPIs); a day
  // with data compared with a day with data is named by itself.
  const against = points.map(({ compareBucket: before, ...point }) => {
    const { compared } = ranges;
    if (!compared || !(lacking(point) || (before && before.daysWithData > 0 && lacking(before)))) return null;
    if (!before) return `no ${grain} of the compared period`;
    return before.daysInRange === 1 && point.daysInRange === 1 && before.daysWithData > 0
      ? nameOf(before, compared)
      : `${nameOf(before, compared)} (${told(before, compared)})`;
  });
  const names = new Map(points.map((point) => [point.date, nameOf(point, ranges.current)]));
  // A range of one bucket is drawn as bars one under another: the comparison's says which bucket it is.
  const one = points.length === 1 && points[0]!.compareBucket;
  const comparison = one
    ? `comparison period (${nameOf(one, ranges.compared ?? ranges.current)})`
    : 'comparison period';
  return data.series.map((line) => {
    const meaning = meaningOf(data.widgetId, line.metric);
    const series: Series[] = [
      // A bucket without data is no point (a gap), although a count's value reads 0 there.
      { label: words(line.metric), values: line.points.map((point) => (point.daysWithData ? point.value : null)) },
      ...(ranges.compared
        ? [{ label: comparison, values: line.points.map((point) => point.previousValue), dashed: true }]
        : []),
    ];
    return chart({
      title,
      ...(data.series.length > 1 ? { detail: words(line.metric) } : {}),
      labels: line.points.map((point) => point.date),
      dates,
      partial: points.map((point) => (lacking(point) ? told(point, ranges.current) : null)),
      against,
      series,
      format: meaning.format,
      axisFormat: meaning.axis,
      label: (date) => names.get(date) ?? label(date),
      ranked: meaning.ranked,
      tick: grain === 'month' ? f.month : f.shortDay,
      bars: data.type === 'bar_chart',
    });
  });
}

/** A table named with its source ("Devices · Meta Ads"): a dimension's values read alike in every source. */
function tableOf(data: TableData, title: string, source: string, meaningOf: MeaningOf, { f, unlike, empty }: Changes) {
  const meanings = data.columns.map((metric) => meaningOf(data.widgetId, metric));
  const cell = (value: number | null, previous: number | null | undefined, column: number) => {
    const { format, direction } = meanings[column]!;
    if (empty) {
      const was = previous === undefined || previous === null ? '' : ` (was ${format(previous)})`;
      return h('span', {}, '– ', noDataYet(), was);
    }
    if (previous === undefined || previous === null || value === null || previous === 0) return format(value);
    return h('span', {}, format(value), ' ', delta((value - previous) / Math.abs(previous), direction, f, unlike));
  };
  const rows = data.rows.map((row) => [
    row.dimensionValue,
    ...row.values.map((value, index) => cell(value, row.previousValues?.[index], index)),
  ]);
  rows.push([
    'Total',
    ...data.totals.values.map((value, index) => cell(value, data.totals.previousValues?.[index], index)),
  ]);
  const caption = h('span', {}, bdi(title), title.toLowerCase().includes(source.toLowerCase()) ? '' : ` · ${source}`);
  return table(caption, [words(data.dimension), ...data.columns.map(words)], rows);
}

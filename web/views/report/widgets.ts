// A report's widgets as the view draws them: KPI tiles with their change, one chart per metric
// with the comparison dashed, tables named with their source, and what lacks data.
import { change as delta } from '../common/change.js';
import { chart, type Series } from '../common/charts.js';
import { bdi, h, table } from '../common/dom.js';
import type { Formats } from '../common/format.js';
import {
  laterBy,
  words,
  type ChartData,
  type Changes,
  type Kpi,
  type MeaningOf,
  type MetricMeaning,
  type Ranges,
  type Span,
  type TableData,
} from './data.js';

/** Which periods lack data ("the current period has data for 0 of 1 day"), and what that does to the changes. */
export function coverageNotice(missing: string[], compared: boolean, empty: boolean) {
  const sentences = missing.map((phrase) => `${phrase[0]!.toUpperCase()}${phrase.slice(1)}.`);
  const consequence = empty
    ? ' Its figures read "no data yet", not 0, and no change is shown.'
    : compared
      ? ' The periods are not like for like: changes are marked "partial data", not called better or worse.'
      : '';
  return h('p', { class: 'notice coverage', role: 'note' }, sentences.join(' '), consequence);
}

/** The source a widget's caption adds after its title, unless the title names it already ("Meta Ads spend"). */
const sourceAfter = (title: string, source: string) =>
  title.toLowerCase().includes(source.toLowerCase()) ? null : source;

/**
 * A KPI: its metric's name first (always in view), the widget's title and its source after it (clamped when long):
 * "sessions · Traffic · Google Analytics", as charts and tables name theirs.
 */
export function kpiTile(
  kpi: Kpi,
  title: string | undefined,
  source: string,
  { format, direction }: MetricMeaning,
  changes: Changes,
) {
  const metric = words(kpi.metric);
  const named = title && title !== kpi.metric ? title : null;
  const from = sourceAfter(named ?? '', source);
  const full = [metric, named, from].filter(Boolean).join(' · ');
  return h(
    'li',
    { class: 'kpi' },
    h('div', { class: 'name', title: full }, metric, named ? [' · ', bdi(named)] : null, from ? ` · ${from}` : null),
    h('div', { class: 'value' }, changes.empty ? '–' : format(kpi.value)),
    changes.empty ? noDataYet() : delta(kpi.change, direction, changes.f, changes.unlike),
    kpi.previousValue !== null ? h('span', { class: 'delta' }, ` (was ${format(kpi.previousValue)})`) : null,
  );
}

/** In place of a figure and its change over a period without any data: its sums would read 0, its change -100 %. */
const noDataYet = () => h('span', { class: 'delta', title: 'The period has no data yet.' }, 'no data yet');

/**
 * One chart per metric (metrics of a widget differ in scale: cost and ROAS), the comparison
 * period dashed beside it, named by its title, its metric (if several) and its source ("Spend · cost · Meta Ads").
 * A bucket without data is a gap, not 0; one the range cuts or with days without data is named, with the compared
 * bucket it is set against.
 */
export function chartsOf(
  data: ChartData,
  title: string,
  source: string,
  ranges: Ranges,
  meaningOf: MeaningOf,
  f: Formats,
) {
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
    const detail = [data.series.length > 1 ? words(line.metric) : null, sourceAfter(title, source)].filter(Boolean);
    return chart({
      title,
      ...(detail.length ? { detail: detail.join(' · ') } : {}),
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
export function tableOf(
  data: TableData,
  title: string,
  source: string,
  meaningOf: MeaningOf,
  { f, unlike, empty }: Changes,
) {
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
  const named = sourceAfter(title, source);
  const caption = h('span', {}, bdi(title), named ? ` · ${named}` : '');
  return table(caption, [words(data.dimension), ...data.columns.map(words)], rows);
}

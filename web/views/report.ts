// The report view: a report's KPIs with their change against the comparison period, its charts
// (time series and bars, the comparison dashed) and tables, with the date preset and the
// comparison switchable from inside the view.
import './shared/theme.css';
import { change as delta, type Direction } from './shared/change.js';
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

interface Widget { id: string; type: string; title: string; provider: string; metrics: string[]; dimension: string | null }
interface Kpi { widgetId: string; metric: string; value: number | null; previousValue: number | null; change: number | null }
interface Point { date: string; value: number | null; previousValue: number | null; daysInRange: number; partial: boolean }
interface ChartData { widgetId: string; type: string; granularity: string | null; series: { metric: string; points: Point[] }[] }
/** A range with how many of its days have data. */
interface CoveredRange { from: string; to: string; days: number; daysWithData: number }
interface TableData { widgetId: string; dimension: string; columns: string[]; rows: { dimensionValue: string; values: (number | null)[]; previousValues: (number | null)[] | null }[]; totals: { values: (number | null)[]; previousValues: (number | null)[] | null } }
interface ReportData {
  report: { data: { id: string; name: string; definition: { widgets: Widget[]; dateConfig: { datePreset: string; comparePreset: string; timezone: string } } } | null } | null;
  reportData: { data: {
    reportId: string; range: CoveredRange; compareRange: CoveredRange | null; kpis: Kpi[]; charts: ChartData[]; tables: TableData[];
  } | null } | null;
  metricCatalog: { providers: { id: string; metrics: { id: string; unit: string; direction: Direction }[] }[] };
}

/** A widget's metric as the catalogue declares it: written in its unit (a rate of 0.03 reads 3 %), judged by its direction. */
type Written = (value: number | null | undefined) => string;
interface MetricMeaning { format: Written; axis: Written; direction: Direction }
type MeaningOf = (widgetId: string, metric: string) => MetricMeaning;
/** How a change is shown: coloured and worded by the metric's direction unless the compared period is partly empty. */
interface Changes { f: Formats; judged: boolean }

const PRESETS = ['today', 'yesterday', 'last_7_days', 'last_14_days', 'last_28_days', 'last_30_days', 'last_90_days', 'last_365_days', 'this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year'];
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
    const declared = new Map(data.metricCatalog.providers.flatMap((provider) =>
      provider.metrics.map((metric) => [`${provider.id}.${metric.id}`, metric])));
    const meaningOf: MeaningOf = (widgetId, metric) => {
      const entry = declared.get(`${providerOf.get(widgetId)}.${metric}`);
      const format = f.ofUnit(entry?.unit);
      // An axis tick is a round number: money's cents there would only widen it.
      return { format, axis: entry?.unit === 'currency' ? f.number : format, direction: entry?.direction ?? 'neutral' };
    };
    const select = (label: string, values: string[], chosen: string, choose: (value: string) => void) =>
      h('label', {}, label, h('select', { 'aria-label': label, onchange: (event) => choose((event.target as HTMLSelectElement).value) }, values.map((value) => h('option', { value, ...(value === chosen ? { selected: true } : {}) }, words(value)))));
    const compared = numbers.compareRange;
    const thin = (range: CoveredRange | null) => range !== null && range.daysWithData < range.days;
    const changes: Changes = { f, judged: !thin(compared) };
    root.append(
      h('h1', {}, report.name),
      h('p', { class: 'sub' }, `${f.day(numbers.range.from)} – ${f.day(numbers.range.to)}`, compared ? ` · compared with ${f.day(compared.from)} – ${f.day(compared.to)}` : ''),
      h('div', { class: 'controls' },
        select('Dates', PRESETS, args.datePreset ?? dateConfig.datePreset, (datePreset) => reload({ ...args, datePreset })),
        select('Compare with', COMPARISONS, args.comparePreset ?? dateConfig.comparePreset, (comparePreset) => reload({ ...args, comparePreset }))),
    );
    if (thin(numbers.range)) root.append(coverageNotice('This range', numbers.range, f, ''));
    if (compared && !changes.judged) {
      const consequence = ': its changes are not like for like, so they are marked and not called better or worse';
      root.append(coverageNotice('The compared period', compared, f, consequence));
    }
    if (numbers.kpis.length) root.append(h('ul', { class: 'kpis', 'aria-label': 'KPIs' }, numbers.kpis.map((kpi) => kpiTile(kpi, titleOf.get(kpi.widgetId), meaningOf(kpi.widgetId, kpi.metric), changes))));
    if (numbers.charts.length) root.append(h('div', { class: 'grid' }, numbers.charts.flatMap((data) => chartsOf(data, titleOf.get(data.widgetId) ?? data.widgetId, Boolean(compared), meaningOf, f))));
    for (const data of numbers.tables) root.append(h('div', { class: 'scroll' }, tableOf(data, titleOf.get(data.widgetId) ?? data.widgetId, meaningOf, changes)));
  },
});

function coverageNotice(what: string, coverage: CoveredRange, f: Formats, consequence: string) {
  return h('p', { class: 'notice coverage', role: 'note' },
    `${what} has data for ${f.number(coverage.daysWithData)} of ${f.number(coverage.days)} days${consequence}.`);
}

function kpiTile(kpi: Kpi, title: string | undefined, { format, direction }: MetricMeaning, { f, judged }: Changes) {
  const metric = words(kpi.metric);
  const named = title && title !== kpi.metric ? title : null;
  return h('li', { class: 'kpi' },
    h('div', { class: 'name', title: named ? `${named} · ${metric}` : metric }, named ? [bdi(named), ` · ${metric}`] : metric),
    h('div', { class: 'value' }, format(kpi.value)),
    delta(kpi.change, direction, f, judged),
    kpi.previousValue !== null ? h('span', { class: 'delta' }, ` (was ${format(kpi.previousValue)})`) : null);
}

/** One chart per metric (metrics of a widget differ in scale: cost and ROAS), the comparison period dashed beside it. */
function chartsOf(data: ChartData, title: string, compared: boolean, meaningOf: MeaningOf, f: Formats) {
  // A week's or month's point sits at its first day; the axis marks those days.
  const dates = { day: f.shortDay, month: f.month, atPoints: data.granularity !== 'day' };
  return data.series.map((line) => {
    const meaning = meaningOf(data.widgetId, line.metric);
    const series: Series[] = [
      { label: words(line.metric), values: line.points.map((point) => point.value) },
      ...(compared ? [{ label: 'comparison period', values: line.points.map((point) => point.previousValue), dashed: true }] : []),
    ];
    return chart({
      title, ...(data.series.length > 1 ? { detail: words(line.metric) } : {}),
      labels: line.points.map((point) => point.date), dates,
      partial: line.points.map((point) =>
        (point.partial ? `${f.number(point.daysInRange)} ${point.daysInRange === 1 ? 'day' : 'days'} in the range` : null)),
      series, format: meaning.format, axisFormat: meaning.axis, label: data.granularity === 'month' ? f.month : f.day,
      tick: data.granularity === 'month' ? f.month : f.shortDay, bars: data.type === 'bar_chart',
    });
  });
}

function tableOf(data: TableData, title: string, meaningOf: MeaningOf, { f, judged }: Changes) {
  const meanings = data.columns.map((metric) => meaningOf(data.widgetId, metric));
  const cell = (value: number | null, previous: number | null | undefined, column: number) => {
    const { format, direction } = meanings[column]!;
    if (previous === undefined || previous === null || value === null || previous === 0) return format(value);
    return h('span', {}, format(value), ' ', delta((value - previous) / Math.abs(previous), direction, f, judged));
  };
  const rows = data.rows.map((row) => [row.dimensionValue, ...row.values.map((value, index) => cell(value, row.previousValues?.[index], index))]);
  rows.push(['Total', ...data.totals.values.map((value, index) => cell(value, data.totals.previousValues?.[index], index))]);
  return table(bdi(title), [words(data.dimension), ...data.columns.map(words)], rows);
}

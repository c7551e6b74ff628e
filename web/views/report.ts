// The report view: a report's KPIs with their change against the comparison period, its charts
// (time series and bars, the comparison dashed) and tables, with the date preset and the
// comparison switchable from inside the view.
import './common/theme.css';
import { missingData } from './common/change.js';
import { h } from './common/dom.js';
import { startView } from './common/host.js';
import { at, text } from './common/read.js';
import { words, type Changes, type MeaningOf, type ReportArgs, type ReportData } from './report/data.js';
import { chartsOf, coverageNotice, kpiTile, tableOf } from './report/widgets.js';

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

/** A labelled choice of ids, written as words, that calls `choose` with the id chosen. */
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
      const format = f.ofUnit(entry?.unit, numbers.currency);
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
        ` · ${dateConfig.timezone} days`,
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
            kpiTile(
              kpi,
              titleOf.get(kpi.widgetId),
              sourceOf(kpi.widgetId),
              meaningOf(kpi.widgetId, kpi.metric),
              changes,
            ),
          ),
        ),
      );
    const ranges = { current: numbers.range, compared };
    const charts = numbers.charts.flatMap((data) =>
      chartsOf(data, titled(data.widgetId), sourceOf(data.widgetId), ranges, meaningOf, f),
    );
    if (charts.length) root.append(h('div', { class: 'grid' }, charts));
    for (const data of numbers.tables) {
      const shown = tableOf(data, titled(data.widgetId), sourceOf(data.widgetId), meaningOf, changes);
      root.append(h('div', { class: 'scroll' }, shown));
    }
  },
});

// The AI-visibility view: a project's visibility and share of voice over time per model, one
// locale at a time (each locale is its own market; they are never pooled together), the brand
// against its competitors, sentiment, and the domains the answers cite.
import './common/theme.css';
import { bdi, h, names, table } from './common/dom.js';
import { startView } from './common/host.js';
import { at, coverageNotice, daysIn, rangeControl, text, withheldNotice } from './common/read.js';
import { localesOf, SENTIMENT_SCALE, type VisibilityArgs, type VisibilityData } from './visibility/data.js';
import { competitorSection, kpis, sentiment, trendCharts } from './visibility/sections.js';
import { opportunities, sources } from './visibility/sources.js';

startView<VisibilityArgs, VisibilityData>({
  title: 'Signalboard AI visibility',
  tool: 'view_visibility',
  argsFrom(input, result) {
    // get_ai_visibility_metrics (aiVisibilityMetrics.data) or get_visibility_trend (node).
    const id =
      text(input.id) ?? text(at(result, 'aiVisibilityMetrics', 'data', 'projectId')) ?? text(at(result, 'node', 'id'));
    if (!id) return null;
    const dateFrom = text(input.dateFrom) ?? text(at(result, 'aiVisibilityMetrics', 'data', 'range', 'from'));
    const dateTo = text(input.dateTo) ?? text(at(result, 'aiVisibilityMetrics', 'data', 'range', 'to'));
    const locale = text(input.locale);
    return { id, ...(dateFrom ? { dateFrom } : {}), ...(dateTo ? { dateTo } : {}), ...(locale ? { locale } : {}) };
  },
  // The data hold every locale; the one shown is chosen among them.
  local: ['locale'],
  shownArgs(data, args) {
    // A locale the data do not hold is drawn as their first.
    if (!args.locale || !data.node || localesOf(data.node).includes(args.locale)) return args;
    const others = { ...args };
    delete others.locale;
    return others;
  },
  render(root, data, args, { formats: f, reload }) {
    const project = data.node;
    if (!project) return void root.append(h('p', { class: 'notice' }, 'No such project in this workspace.'));
    const { range, totals } = project.metrics.data;
    const locales = localesOf(project);
    const locale = args.locale && locales.includes(args.locale) ? args.locale : locales[0];
    const pick = h(
      'select',
      {
        'aria-label': 'Locale',
        onchange: (event) => reload({ ...args, locale: (event.target as HTMLSelectElement).value }),
      },
      locales.map((code) => h('option', { value: code, ...(code === locale ? { selected: true } : {}) }, code)),
    );
    root.append(
      h('h1', {}, project.name),
      h(
        'p',
        { class: 'sub' },
        bdi(project.brand),
        ' against ',
        project.competitors.length ? names(project.competitors) : 'no competitors',
        ` · ${f.day(range.from)} – ${f.day(range.to)}`,
        // AI-visibility days are UTC days wherever the reader is (the API's rule).
        ' · UTC days',
      ),
      h(
        'div',
        { class: 'controls' },
        rangeControl(range, (from, to) => reload({ ...args, dateFrom: from, dateTo: to })),
        h('label', {}, 'Locale', pick),
      ),
    );
    const total = totals.find((row) => row.locale === locale);
    if (!locale || !total) return void root.append(h('p', { class: 'notice empty' }, 'No answers in this range.'));
    const trend = project.trend.filter((point) => point.locale === locale);
    // The trend is read per day (the view asks for no other granularity): its periods are the days with scans.
    const coverage = { days: daysIn(range), daysWithData: new Set(trend.map((point) => point.period)).size };
    root.append(
      coverage.daysWithData < coverage.days
        ? coverageNotice('This range', coverage, f, ` (those scanned in ${locale}): its figures cover those days only`)
        : '',
      kpis(total, f),
      trendCharts(trend, project.models, f),
      h('h2', {}, 'Brand and competitors'),
      competitorSection(project.brand, total, f),
      h('h2', {}, 'By model'),
      h(
        'div',
        { class: 'scroll' },
        table(
          `By model, ${locale}`,
          ['Model', 'Runs', 'Visibility', 'Share of voice', 'Avg. position', SENTIMENT_SCALE],
          total.byModel.map((row) => [
            row.model,
            f.number(row.totalRuns),
            f.percent(row.visibility),
            f.percent(row.shareOfVoice),
            f.decimal(row.averagePosition),
            f.decimal(row.sentiment ?? null),
          ]),
        ),
      ),
      h('h2', {}, 'Sentiment'),
      sentiment(total, f),
      h('h2', {}, 'Cited sources'),
      project.sources
        ? sources(
            project.sources.data.rows.filter((row) => row.locale === locale),
            locale,
            f,
          )
        : withheldNotice('Cited sources', data.withheld?.['node.sources']),
      h('h2', {}, 'What to do next'),
      project.opportunities
        ? opportunities(project.opportunities, locale, f)
        : withheldNotice('Opportunities', data.withheld?.['node.opportunities']),
    );
  },
});

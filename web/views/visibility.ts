// The AI-visibility view: a project's visibility and share of voice over time per model, one
// locale at a time (each locale is its own market; they are never pooled together), the brand
// against its competitors, sentiment, and the domains the answers cite.
import './shared/theme.css';
import { chart, PALETTE } from './shared/charts.js';
import { bdi, clipped, h, names, table } from './shared/dom.js';
import type { Formats } from './shared/format.js';
import { startView, type Args } from './shared/host.js';
import { at, coverageNotice, daysIn, rangeControl, text, withheldNotice, type Withheld } from './shared/read.js';

interface VisibilityArgs extends Args {
  id: string;
  dateFrom?: string;
  dateTo?: string;
  granularity?: 'day' | 'week' | 'month';
  /** The locale shown (each is its own market), among those the data hold. */
  locale?: string;
}

/** The sentiment score's name with its scale: a bare 0.36 says nothing without it. */
const SENTIMENT_SCALE = 'Sentiment (−1 to +1)';

interface Rates {
  totalRuns: number;
  visibility: number | null;
  shareOfVoice: number | null;
  averagePosition: number | null;
  sentiment?: number | null;
}
interface TrendPoint extends Rates {
  period: string;
  model: string;
  locale: string;
}
interface LocaleTotals extends Rates {
  locale: string;
  positiveCount: number;
  neutralCount: number;
  negativeCount: number;
  byModel: (Rates & { model: string })[];
  competitors: (Rates & { name: string })[];
}
interface SourceRow {
  locale: string;
  domain: string;
  citations: number;
  answersCiting: number;
  citationShare: number;
  answerShare: number;
  retrievals: number;
  retrievedNotCited: number;
  owned: boolean;
  competitor: string | null;
}
interface Opportunities {
  prompts: {
    locale: string;
    prompt: string;
    runs: number;
    brandVisibility: number | null;
    bestCompetitor: { name: string; visibility: number };
    score: number;
  }[];
  sources: {
    locale: string;
    domain: string;
    citations: number;
    answers: number;
    competitors: string[];
    score: number;
  }[];
  pages: { locale: string; url: string; retrievals: number; retrievedNotCited: number; score: number }[];
}
type Project = NonNullable<VisibilityData['node']>;
interface VisibilityData {
  node: {
    id: string;
    name: string;
    brand: string;
    competitors: string[];
    models: string[];
    locales: string[];
    trend: TrendPoint[];
    metrics: { data: { range: { from: string; to: string }; totals: LocaleTotals[] } };
    // Left out when the MCP token's consent does not include answers (named in `withheld`).
    sources?: { data: { rows: SourceRow[] } };
    opportunities?: Opportunities;
  } | null;
  withheld?: Withheld;
}

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
    const { locale: _unknown, ...others } = args;
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

/** The locales a project's data may be shown in: its own, else those its totals hold. */
const localesOf = (project: Project): string[] =>
  project.locales.length ? project.locales : project.metrics.data.totals.map((row) => row.locale);

function kpis(total: LocaleTotals, f: Formats) {
  const tile = (name: string, value: string) =>
    h('li', { class: 'kpi' }, h('div', { class: 'name' }, name), h('div', { class: 'value' }, value));
  return h(
    'ul',
    { class: 'kpis', 'aria-label': 'Totals' },
    tile('Visibility', f.percent(total.visibility)),
    tile('Share of voice', f.percent(total.shareOfVoice)),
    tile('Avg. position', f.decimal(total.averagePosition)),
    tile(SENTIMENT_SCALE, f.decimal(total.sentiment ?? null)),
    tile('Runs', f.number(total.totalRuns)),
  );
}

function trendCharts(points: TrendPoint[], models: string[], f: Formats) {
  const periods = [...new Set(points.map((point) => point.period))].sort();
  const index = new Map(points.map((point) => [`${point.model} ${point.period}`, point]));
  const shown = models.filter((model) => points.some((point) => point.model === model));
  // Periods may be weeks, then days: the axis is time, so each sits at its own date.
  const dates = { day: f.shortDay, month: f.month };
  const seriesOf = (rate: 'visibility' | 'shareOfVoice' | 'averagePosition') =>
    shown.map((model) => ({
      label: model,
      values: periods.map((period) => index.get(`${model} ${period}`)?.[rate] ?? null),
    }));
  return h(
    'div',
    { class: 'grid' },
    chart({
      title: 'Visibility by model',
      labels: periods,
      dates,
      series: seriesOf('visibility'),
      format: f.percent,
      label: f.day,
    }),
    chart({
      title: 'Share of voice by model',
      labels: periods,
      dates,
      series: seriesOf('shareOfVoice'),
      format: f.percent,
      label: f.day,
    }),
    // A position is a rank (1 is named first): drawn with 1 at the top, so that worse goes down.
    chart({
      title: 'Avg. position by model',
      labels: periods,
      dates,
      series: seriesOf('averagePosition'),
      format: f.decimal,
      axisFormat: f.number,
      label: f.day,
      ranked: true,
    }),
  );
}

function competitorSection(brand: string, total: LocaleTotals, f: Formats) {
  const rows = [{ name: brand, ...total }, ...total.competitors];
  return h(
    'div',
    { class: 'grid' },
    visibilityBars(rows, f),
    h(
      'div',
      { class: 'scroll' },
      table(
        'Brand and competitors',
        ['Name', 'Visibility', 'Share of voice', 'Avg. position'],
        rows.map((row, position) => [
          position === 0 ? h('span', {}, bdi(row.name), h('span', { class: 'tag owned' }, 'brand')) : row.name,
          f.percent(row.visibility),
          f.percent(row.shareOfVoice),
          f.decimal(row.averagePosition),
        ]),
      ),
    ),
  );
}

/**
 * The brand's and each competitor's visibility as bars across the box, each with its name whole
 * above it: names are anyone's text and may be long, which a chart's axis could only cut or
 * overlap. A bar's track is the whole (100 %), so that its length is the rate itself.
 */
function visibilityBars(rows: { name: string; visibility: number | null }[], f: Formats) {
  return h(
    'figure',
    { class: 'chart bars' },
    h('figcaption', {}, 'Visibility: brand and competitors'),
    h(
      'ul',
      { class: 'bar-list' },
      rows.map((row, index) => {
        const bar = h('span', { class: 'bar' });
        bar.style.width = `${Math.min(1, Math.max(0, row.visibility ?? 0)) * 100}%`;
        bar.style.background = PALETTE[0]!;
        return h(
          'li',
          {},
          h('span', { class: 'bar-name' }, bdi(row.name), index ? null : h('span', { class: 'tag owned' }, 'brand')),
          h('span', { class: 'bar-value' }, f.percent(row.visibility)),
          h('span', { class: 'bar-track', 'aria-hidden': 'true' }, bar),
        );
      }),
    ),
  );
}

function sentiment(total: LocaleTotals, f: Formats) {
  const counted = total.positiveCount + total.neutralCount + total.negativeCount;
  const share = (count: number) => (counted ? f.percent(count / counted) : '–');
  return h(
    'div',
    { class: 'scroll' },
    table(
      'Sentiment of answers mentioning the brand',
      ['', 'Answers', 'Share'],
      [
        ['Positive', f.number(total.positiveCount), share(total.positiveCount)],
        ['Neutral', f.number(total.neutralCount), share(total.neutralCount)],
        ['Negative', f.number(total.negativeCount), share(total.negativeCount)],
      ],
    ),
  );
}

function sources(rows: SourceRow[], locale: string, f: Formats) {
  if (!rows.length) return h('p', { class: 'notice empty' }, 'No citations in this range.');
  return h(
    'div',
    { class: 'scroll' },
    table(
      `Most cited domains, ${locale}`,
      [
        'Domain',
        'Citations',
        'Share of citations',
        'Answers citing',
        'Share of answers',
        'Runs that read it',
        'Read, not cited',
      ],
      rows.map((row) => [
        h(
          'span',
          {},
          bdi(row.domain),
          row.owned ? h('span', { class: 'tag owned' }, 'owned') : null,
          row.competitor ? h('span', { class: 'tag competitor' }, bdi(row.competitor)) : null,
        ),
        f.number(row.citations),
        f.percent(row.citationShare),
        f.number(row.answersCiting),
        f.percent(row.answerShare),
        f.number(row.retrievals),
        f.number(row.retrievedNotCited),
      ]),
    ),
  );
}

/** The opportunity lists of one locale, each with the figures behind its score. */
function opportunities(lists: Opportunities, locale: string, f: Formats) {
  const prompts = lists.prompts.filter((item) => item.locale === locale);
  const sites = lists.sources.filter((item) => item.locale === locale);
  const pages = lists.pages.filter((item) => item.locale === locale);
  if (!prompts.length && !sites.length && !pages.length)
    return h('p', { class: 'notice empty' }, 'No opportunities in this range.');
  return h(
    'div',
    { class: 'scroll' },
    prompts.length
      ? table(
          'Prompts where a competitor is visible and the brand is not (runs at stake)',
          ['Prompt', 'Runs', 'Brand', 'Best competitor', 'Runs at stake'],
          prompts.map((item) => [
            item.prompt,
            f.number(item.runs),
            f.percent(item.brandVisibility),
            h('span', {}, bdi(item.bestCompetitor.name), ` ${f.percent(item.bestCompetitor.visibility)}`),
            f.number(item.score),
          ]),
        )
      : null,
    sites.length
      ? table(
          'Sites citing competitors but never the brand',
          ['Domain', 'Citations', 'Answers', 'Competitors named'],
          sites.map((item) => [
            item.domain,
            f.number(item.citations),
            f.number(item.answers),
            h('span', {}, names(item.competitors)),
          ]),
        )
      : null,
    pages.length
      ? table(
          'Own pages read but not cited',
          ['Page', 'Runs that read it', 'Read, not cited'],
          pages.map((item) => [clipped(item.url), f.number(item.retrievals), f.number(item.retrievedNotCited)]),
        )
      : null,
  );
}

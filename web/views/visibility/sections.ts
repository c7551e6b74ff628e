// The AI-visibility view's figures for one locale: KPIs, the trend per model, the brand against
// its competitors, and sentiment.
import { chart, PALETTE } from '../common/charts.js';
import { bdi, h, table } from '../common/dom.js';
import type { Formats } from '../common/format.js';
import { SENTIMENT_SCALE, type LocaleTotals, type TrendPoint } from './data.js';

export function kpis(total: LocaleTotals, f: Formats) {
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

export function trendCharts(points: TrendPoint[], models: string[], f: Formats) {
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

export function competitorSection(brand: string, total: LocaleTotals, f: Formats) {
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
export function visibilityBars(rows: { name: string; visibility: number | null }[], f: Formats) {
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

export function sentiment(total: LocaleTotals, f: Formats) {
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

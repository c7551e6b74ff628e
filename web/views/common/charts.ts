// Charts through uPlot (docs/decisions/views-bundle-budget.md). Every chart is a figure with a
// caption and its numbers as a table beside it (the text alternative), in the Okabe–Ito
// palette, which stays distinguishable with the common colour-vision deficiencies.
import 'uplot/dist/uPlot.min.css';
import { bdi, h, table } from './dom.js';
import { draw, faded, PALETTE, type ChartOptions, type Series } from './chart-plot.js';

export { PALETTE } from './chart-plot.js';
export type { Series } from './chart-plot.js';

// The partial periods a chart names under it; more are in its table.
const NOTED = 6;

/** Under a chart: its positions whose figures cover part of their bucket, each with what it is compared with. */
function partialNote(noted: string[], drawn: string): HTMLElement | null {
  if (!noted.length) return null;
  return h(
    'p',
    { class: 'note partial' },
    `Partial periods${drawn}: ${noted.slice(0, NOTED).join('; ')}`,
    noted.length > NOTED ? `; ${noted.length - NOTED} more in the table. ` : '. ',
    'A figure covers its days with data only; a period without data is left out, not drawn as 0.',
  );
}

const legend = (series: Series[]) =>
  h(
    'ul',
    { class: 'legend' },
    series.map((line, index) =>
      h(
        'li',
        {},
        h('span', {
          class: `swatch${line.dashed ? ' dashed' : ''}`,
          style: `--swatch:${PALETTE[index % PALETTE.length]}`,
        }),
        line.label,
      ),
    ),
  );

/** A line (or bar) chart with its data table; it follows its container's width. One x position is drawn as bars. */
export function chart(options: ChartOptions): HTMLElement {
  const { title, detail, labels, series, format } = options;
  const partial = options.partial ?? [];
  const against = options.against ?? [];
  const label = options.label ?? ((text: string) => text);
  const compared = (row: number) => (against[row] ? ` compared with ${against[row]}` : '');
  const named = (text: string, row: number, prefix: string) =>
    `${label(text)}${partial[row] ? ` (${prefix}${partial[row]})` : ''}${compared(row)}`;
  const noted = labels.flatMap((text, row) => (partial[row] || against[row] ? [named(text, row, '')] : []));
  const ranked = options.ranked ? ' · 1 (best) at the top' : '';
  const name = `${detail ? `${title} · ${detail}` : title}${ranked}`;
  const caption = () => h('span', {}, bdi(title), detail ? ` · ${detail}` : '', ranked);
  const plot = h('div', {
    class: 'plot',
    role: 'img',
    'aria-label': `${name}: chart; its numbers are in the table below.`,
  });
  const rows = labels.map((text, row) => [
    named(text, row, 'partial: '),
    ...series.map((line) => format(line.values[row] ?? null)),
  ]);
  const figure = h(
    'figure',
    { class: 'chart' },
    h('figcaption', { title: name }, caption()),
    // One position names each bar beside it: no legend.
    labels.length === 1 ? null : legend(series),
    plot,
    partialNote(
      noted,
      !partial.some(Boolean) || labels.length === 1
        ? ''
        : options.bars
          ? ' (lighter bars)'
          : ' (drawn lighter: a faded dashed line to a hollow point)',
    ),
    h('details', {}, h('summary', {}, 'Table'), table(caption(), ['', ...series.map((line) => line.label)], rows)),
  );
  if (labels.length === 1) plot.append(onePosition(label(labels[0]!), series, format, Boolean(partial[0])));
  else draw(plot, options);
  return figure;
}

/**
 * One x position (a range of one day, week or month): its figures as bars one under another,
 * each from zero with its value written beside it, where uPlot would draw a lone dot.
 */
function onePosition(name: string, series: Series[], format: ChartOptions['format'], partial: boolean): HTMLElement {
  const values = series.map((line) => line.values[0] ?? null);
  const top = Math.max(0, ...values.map((value) => value ?? 0));
  const grid = 'display:grid;grid-template-columns:1fr auto;gap:2px 8px;align-items:center;padding:8px 0';
  const box = h('div', { style: grid }, h('span', { style: 'grid-column:1/-1;font-weight:600' }, name));
  series.forEach((line, index) => {
    const colour = PALETTE[index % PALETTE.length]!;
    const value = values[index] ?? null;
    const width = value !== null && top > 0 ? Math.max(0, value / top) * 100 : 0;
    const fill = line.dashed ? `border:2px dashed ${colour}` : `background:${partial ? faded(colour) : colour}`;
    box.append(
      h('span', { style: 'grid-column:1/-1;margin-top:6px;color:var(--text-secondary);font-size:12px' }, line.label),
      h('span', {}, h('span', { style: `display:block;box-sizing:border-box;height:18px;width:${width}%;${fill}` })),
      h('span', { style: 'font-variant-numeric:tabular-nums' }, format(value)),
    );
  });
  return box;
}

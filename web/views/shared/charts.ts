// Charts through uPlot (chosen by bench:views: the smallest bundle and fastest first frame of the
// candidates; test/bench/README.md, "Views"). Every chart is a figure with a caption and its
// numbers as a table beside it (the text alternative), in the Okabe–Ito palette, which stays
// distinguishable with the common colour-vision deficiencies.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { bdi, clip, h, table } from './dom.js';

export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999999'];

export interface Series {
  label: string;
  values: (number | null)[];
  /** Drawn dashed (a comparison period). */
  dashed?: boolean;
}

interface ChartOptions {
  /** The chart's name (a widget's title: anyone's text, shown isolated and clamped). */
  title: string;
  /** What of it the chart shows (a metric), written after the title. */
  detail?: string;
  /** Labels of the x positions (days, or names for bars). */
  labels: string[];
  series: Series[];
  format(value: number | null): string;
  /** How a label is written in the table (and on the axis, unless `tick` says otherwise). */
  label?(label: string): string;
  tick?(label: string): string;
  bars?: boolean;
  height?: number;
}

/** A theme variable as a colour a canvas understands (light-dark() and var() resolved by the browser). */
function themeColor(name: string): string {
  const probe = document.body.appendChild(h('span', { style: `color:var(${name})`, hidden: true }));
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

// On the canvas a label cannot wrap: a long one is cut (the table beside the chart has it whole).
const TICK_CHARACTERS = 24;

/** A line (or bar) chart with its data table; it follows its container's width. */
export function chart(options: ChartOptions): HTMLElement {
  const { title, detail, labels, series, format, bars = false, height = 220 } = options;
  const label = options.label ?? ((text: string) => text);
  const tick = options.tick ?? label;
  const name = detail ? `${title} · ${detail}` : title;
  const caption = () => h('span', {}, bdi(title), detail ? ` · ${detail}` : '');
  const plot = h('div', { class: 'plot', role: 'img', 'aria-label': `${name}: chart; its numbers are in the table below.` });
  const figure = h('figure', { class: 'chart' },
    h('figcaption', { title: name }, caption()),
    h('ul', { class: 'legend' }, series.map((line, index) => h('li', {}, h('span', { class: `swatch${line.dashed ? ' dashed' : ''}`, style: `--swatch:${PALETTE[index % PALETTE.length]}` }), line.label))),
    plot,
    h('details', {}, h('summary', {}, 'Table'), table(caption(), ['', ...series.map((line) => line.label)], labels.map((text, row) => [label(text), ...series.map((line) => format(line.values[row] ?? null))]))),
  );
  const axis = { stroke: themeColor('--text-secondary'), grid: { stroke: themeColor('--line'), width: 1 }, ticks: { stroke: themeColor('--line'), width: 1 } };
  const xs = labels.map((_, index) => index);
  const build = (width: number) =>
    new uPlot({
      width,
      height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      // Bars start at zero, or their lengths would lie.
      scales: { x: { time: false, ...(bars ? { range: (_chart: uPlot, min: number, max: number): uPlot.Range.MinMax => [min - 0.5, max + 0.5] } : {}) }, ...(bars ? { y: { range: (_chart: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, max > 0 ? max * 1.05 : 1] } } : {}) },
      axes: [
        { ...axis, values: (_chart, ticks) => ticks.map((at) => (Number.isInteger(at) && labels[at] !== undefined ? clip(tick(labels[at]!), TICK_CHARACTERS) : '')), space: 60 },
        { ...axis, size: 56, values: (_chart, ticks) => ticks.map((tick) => format(tick)) },
      ],
      series: [{}, ...series.map((line, index) => ({
        label: line.label,
        stroke: PALETTE[index % PALETTE.length],
        width: 2,
        ...(line.dashed ? { dash: [6, 4] } : {}),
        // In a bar chart only the first series is bars; the others (a comparison) are lines over them.
        ...(bars && index === 0 ? { fill: PALETTE[0], paths: uPlot.paths.bars!({ size: [0.6, 48] }), points: { show: false } } : { points: { show: !line.dashed && labels.length <= 31, size: 4 } }),
      }))],
    }, [xs, ...series.map((line) => line.values)] as uPlot.AlignedData, plot);
  let drawn: uPlot | null = null;
  new ResizeObserver(([entry]) => {
    const width = Math.floor(entry!.contentRect.width);
    if (width <= 0) return;
    if (!drawn) drawn = build(width);
    else drawn.setSize({ width, height });
  }).observe(plot);
  return figure;
}

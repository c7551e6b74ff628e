// A chart's plot, drawn by uPlot at its container's width: the time axis, the series as lines or
// bars, partial periods faded, in the Okabe–Ito palette.
import uPlot from 'uplot';
import { h } from './dom.js';
import { drawnAs } from './drawn.js';

export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999999'];

export interface Series {
  label: string;
  values: (number | null)[];
  /** Drawn dashed (a comparison period). */
  dashed?: boolean;
}

export interface ChartOptions {
  /** The chart's name (a widget's title: anyone's text, shown isolated and clamped). */
  title: string;
  /** What of it the chart shows (a metric), written after the title. */
  detail?: string;
  /** The x positions: days (ISO dates), written as `dates` says. */
  labels: string[];
  /**
   * The x axis is time (a week's point sits seven days from the next, a day's one day), ticks at
   * whole days, weeks or months written with `day` or `month`.
   */
  dates: {
    day(date: string): string;
    month(date: string): string;
    /** Weeks or months: ticks on the points' own dates (as many as fit), written with `tick`. */
    atPoints?: boolean;
  };
  /**
   * Per x position, why its figure is not a whole bucket's ("3 days in the range", "no data"), or
   * null: drawn lighter (a faded bar; a line faded and dashed into and out of it, its point
   * hollow), noted under the chart and in its table.
   */
  partial?: (string | null)[];
  /** Per x position, what its comparison figure covers when that is worth saying (either side partial), or null. */
  against?: (string | null)[];
  series: Series[];
  format(value: number | null): string;
  /** How the value axis writes its ticks (default: `format`); money's axis drops the cents. */
  axisFormat?(value: number | null): string;
  /** How a label is written in the table (and on the axis, unless `tick` says otherwise). */
  label?(label: string): string;
  tick?(label: string): string;
  bars?: boolean;
  /** The values are ranks (an average position): 1, the best, at the top, so that worse goes down. */
  ranked?: boolean;
  height?: number;
}

/** A theme variable as a colour a canvas understands (light-dark() and var() resolved by the browser). */
function themeColor(name: string): string {
  const probe = document.body.appendChild(h('span', { style: `color:var(${name})`, hidden: true }));
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

const TICK_SPACE = 64;
const DAY = 86_400;
const MONTH = 30 * DAY;
// Tick steps of a time axis: whole days, weeks, months (uPlot aligns month steps to the 1st) or years.
const TIME_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, MONTH, 2 * MONTH, 3 * MONTH, 6 * MONTH, 365 * DAY];
const epochSeconds = (date: string) => Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / 1000;
const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
/** A partial bucket's colour: the series' own, faded (lighter, still its hue). */
export const faded = (color: string) => `${color}66`;
type Range = uPlot.Range.MinMax;

/** The x axis: ticks on whole days, weeks or months, or on the points' own dates (as many as fit). */
function timeAxis(xs: number[], dates: ChartOptions['dates'], tick: (label: string) => string, axis: uPlot.Axis) {
  // Ticks on the points: every k-th, k as small as leaves each tick TICK_SPACE pixels.
  const pointTicks = (plotted: uPlot) => {
    const every = Math.max(1, Math.ceil((xs.length * TICK_SPACE) / Math.max(1, plotted.bbox.width / uPlot.pxRatio)));
    return xs.filter((_, index) => index % every === 0);
  };
  const xAxis: uPlot.Axis = dates.atPoints
    ? { ...axis, space: TICK_SPACE, splits: pointTicks, values: (_chart, ticks) => ticks.map((at) => tick(isoDay(at))) }
    : {
        ...axis,
        space: TICK_SPACE,
        incrs: TIME_STEPS,
        values: (_chart, ticks, _axis, _space, step) =>
          ticks.map((at) => (step >= 28 * DAY ? dates.month : dates.day)(isoDay(at))),
      };
  return xAxis;
}

/** The chart drawn by uPlot into `plot`, at its width, drawn again as that changes. */
export function draw(plot: HTMLElement, options: ChartOptions) {
  const { labels, dates, series, format, bars = false, height = 220 } = options;
  const partial = options.partial ?? [];
  const label = options.label ?? ((text: string) => text);
  const tick = options.tick ?? label;
  const axis = {
    stroke: themeColor('--text-secondary'),
    grid: { stroke: themeColor('--line'), width: 1 },
    ticks: { stroke: themeColor('--line'), width: 1 },
  };
  const xs = labels.map(epochSeconds);
  // Half the narrowest step either side, so that the first and last bars are whole.
  const gaps = xs.slice(1).map((x, index) => x - xs[index]!);
  const pad = (gaps.length ? Math.min(...gaps) : DAY) / 2;
  const xAxis = timeAxis(xs, dates, tick, axis);
  const drawnSeries = drawnAs(series, partial, bars);
  const partialRows = partial.flatMap((why, row) => (why ? [row] : []));
  const hollow = themeColor('--bg');
  const barPaths = uPlot.paths.bars!({ size: [0.6, 48] });
  const padded = (_chart: uPlot, min: number, max: number): Range => [min - pad, max + pad];
  const fromZero = (_chart: uPlot, _min: number, max: number): Range => [0, max > 0 ? max * 1.05 : 1];
  const build = (width: number) =>
    new uPlot(
      {
        width,
        height,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        // Dated ticks are centred on their day: room on the right keeps the last one whole ("Nov 2026").
        tzDate: (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        padding: [null, 36, null, null] as uPlot.Padding,
        // Bars start at zero, or their lengths would lie.
        scales: {
          x: { time: true, ...(bars ? { range: padded } : {}) },
          ...(bars ? { y: { range: fromZero } } : {}),
          ...(options.ranked ? { y: { dir: -1 as const } } : {}),
        },
        axes: [xAxis, { ...axis, size: 56, values: (_chart, ticks) => ticks.map(options.axisFormat ?? format) }],
        series: [
          {},
          ...drawnSeries.map(({ shade, look, ...line }) => {
            const colour = PALETTE[shade % PALETTE.length]!;
            return {
              label: line.label,
              stroke: look === 'cut' ? faded(colour) : colour,
              width: 2,
              ...(line.dashed ? { dash: [6, 4] } : look === 'cut' ? { dash: [3, 3] } : {}),
              // In a bar chart only the first series is bars; the others (a comparison) are lines over them.
              ...(look === 'bar' || look === 'faded bar'
                ? { fill: look === 'bar' ? colour : faded(colour), paths: barPaths, points: { show: false } }
                : look === 'cut'
                  ? { points: { show: true, size: 7, width: 2, fill: hollow, stroke: colour, filter: partialRows } }
                  : { points: { show: !line.dashed && labels.length <= 31, size: 4 } }),
            };
          }),
        ],
      },
      [xs, ...drawnSeries.map((line) => line.values)] as uPlot.AlignedData,
      plot,
    );
  let drawn: uPlot | null = null;
  new ResizeObserver(([entry]) => {
    const width = Math.floor(entry!.contentRect.width);
    if (width <= 0) return;
    if (!drawn) drawn = build(width);
    else drawn.setSize({ width, height });
  }).observe(plot);
}

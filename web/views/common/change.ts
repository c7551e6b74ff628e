// A change against the compared period, judged by the metric's direction as the catalogue
// declares it (a cost per click going down is better, a position going up is worse): an arrow
// for its sign, the word "better" or "worse" beside the colour (never colour alone), and a label
// a screen reader speaks whole. A change is judged only between like periods: both with data
// for every one of their days.
import { h } from './dom.js';
import { readsAsNoChange, type Formats } from './format.js';

export type Direction = 'higher' | 'lower' | 'neutral';
export type Verdict = 'better' | 'worse' | null;

/** A period with how many of its days have data. */
export interface Covered {
  days: number;
  daysWithData: number;
}

/**
 * Whether a change of this sign is good for a metric of this direction; null when neither (none, or a neutral metric).
 */
export function verdict(change: number, direction: Direction): Verdict {
  if (readsAsNoChange(change) || direction === 'neutral') return null;
  return change > 0 === (direction === 'higher') ? 'better' : 'worse';
}

/**
 * What each period of a comparison lacks: "the current period has data for 26 of 27 days", one
 * phrase per period with a day without data. Every day counts: a missing day is a missing share
 * of every sum (one day of 27 is 4 %, the size of a change worth reporting), and a ratio over
 * the days that remain mixes other weekdays than the period it is compared with.
 */
export function missingData(current: Covered, compared: Covered | null, f: Formats): string[] {
  const phrase = (name: string, period: Covered | null) =>
    period && period.daysWithData < period.days
      ? [`the ${name} period has data for ${f.number(period.daysWithData)} of ${f.days(period.days)}`]
      : [];
  return [...phrase('current', current), ...phrase('compared', compared)];
}

/**
 * The change as shown in a KPI tile or a table cell. `unlike` (why the periods are not like for
 * like: see missingData) marks the change "partial data", neither coloured nor called better or
 * worse, the reason in its tooltip. A change that reads 0 % is "no change".
 */
export function change(
  value: number | null,
  direction: Direction,
  f: Formats,
  unlike: string | null = null,
): HTMLElement {
  if (value === null) return h('span', { class: 'delta', 'aria-label': 'no change to show' }, '–');
  const none = readsAsNoChange(value);
  const said = unlike ? null : verdict(value, direction);
  const word = unlike ? 'partial data' : said;
  const how = none ? 'unchanged' : `${value > 0 ? 'up' : 'down'} ${f.percent(Math.abs(value))}`;
  const shown = none ? 'no change' : `${value > 0 ? '▲' : '▼'} ${f.change(value)}`;
  return h(
    'span',
    {
      class: `delta${said ? ` ${said}` : ''}`,
      'aria-label': [how, word].filter(Boolean).join(', '),
      ...(unlike ? { title: `Not called better or worse: ${unlike}.` } : {}),
    },
    shown,
    word ? h('span', { class: 'verdict' }, ` ${word}`) : null,
  );
}

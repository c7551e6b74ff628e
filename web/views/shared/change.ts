// A change against the compared period, judged by the metric's direction as the catalogue
// declares it (a cost per click going down is better, a position going up is worse): an arrow
// for its sign, the word "better" or "worse" beside the colour (never colour alone), and a label
// a screen reader speaks whole.
import { h } from './dom.js';
import type { Formats } from './format.js';

export type Direction = 'higher' | 'lower' | 'neutral';
export type Verdict = 'better' | 'worse' | null;

/** Whether a change of this sign is good for a metric of this direction; null when neither (none, or a neutral metric). */
export function verdict(change: number, direction: Direction): Verdict {
  if (change === 0 || direction === 'neutral') return null;
  return (change > 0) === (direction === 'higher') ? 'better' : 'worse';
}

/**
 * The change as shown in a KPI tile or a table cell. `judged` false (the compared period has data
 * for only part of its days): the change is marked as such and neither coloured nor called better
 * or worse, since it compares unlike periods.
 */
export function change(value: number | null, direction: Direction, f: Formats, judged = true): HTMLElement {
  if (value === null) return h('span', { class: 'delta', 'aria-label': 'no change to show' }, '–');
  const arrow = value > 0 ? '▲' : value < 0 ? '▼' : '';
  const moved = value > 0 ? 'up' : value < 0 ? 'down' : 'unchanged';
  const said = judged ? verdict(value, direction) : null;
  const word = judged ? said : 'partial data';
  const how = moved === 'unchanged' ? moved : `${moved} ${f.percent(Math.abs(value))}`;
  const label = [how, word].filter(Boolean).join(', ');
  return h('span', { class: `delta${said ? ` ${said}` : ''}`, 'aria-label': label },
    `${arrow} ${f.change(value)}`.trim(), word ? h('span', { class: 'verdict' }, ` ${word}`) : null);
}

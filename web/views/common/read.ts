// Reading what a host hands over (a saved result may be of any shape this view ever had), and
// what every view says of its range: the control that changes it, and how much of it has data.
import { h } from './dom.js';
import type { Formats } from './format.js';
import { rangeChoices } from './ranges.js';

/** The value at a path of nested objects, or undefined. */
export function at(value: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    value,
  );
}

export const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/**
 * What an MCP answer left out because the token's consent does not cover it: each section's path
 * and the toolset it needs.
 */
export type Withheld = Record<string, string> | undefined;

/** Said where a section the answer left out would be, naming the toolset that would show it. */
export function withheldNotice(what: string, toolset: string | undefined): HTMLElement {
  const why = toolset
    ? `this connection was not granted the ${toolset} toolset; reconnect the app and grant it to see them`
    : 'this connection was not granted them';
  return h('p', { class: 'notice withheld' }, `${what} are not shown: ${why}.`);
}

const DAY = 86_400_000;
const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
const time = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The days of a range, both ends included. */
export const daysIn = (range: { from: string; to: string }): number =>
  Math.round((time(range.to) - time(range.from)) / DAY) + 1;

/** A range's days, and how many of them have data. */
export interface Coverage {
  days: number;
  daysWithData: number;
}

/** Said when a range has data for only some of its days: how many, and what follows from it. */
export function coverageNotice(what: string, coverage: Coverage, f: Formats, consequence: string): HTMLElement {
  return h(
    'p',
    { class: 'notice coverage', role: 'note' },
    `${what} has data for ${f.number(coverage.daysWithData)} of ${f.days(coverage.days)}${consequence}.`,
  );
}

/** A select of ranges ending on the shown range's last day. */
export function rangeControl(
  range: { from: string; to: string },
  choose: (from: string, to: string) => void,
  widest?: number,
): HTMLElement {
  const end = time(range.to);
  const days = daysIn(range);
  const options = rangeChoices(days, widest);
  return h(
    'label',
    {},
    'Range',
    h(
      'select',
      {
        'aria-label': 'Range',
        onchange: (event) => {
          const count = Number((event.target as HTMLSelectElement).value);
          choose(iso(end - (count - 1) * DAY), range.to);
        },
      },
      options.map((count) =>
        h('option', { value: count, ...(count === days ? { selected: true } : {}) }, `${count} days`),
      ),
    ),
  );
}

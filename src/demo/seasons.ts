// How a demo client's traffic moves over the year and the week: outdoor gear sells in spring and
// summer, gyms fill in January, a roaster's and a cosmetics brand's gifts peak before Christmas,
// software quietens in August and at weekends, a bakery is busiest on Saturday. And each client
// grows (or shrinks) at its own pace, not in a straight line.
import type { BusinessKind, Market } from './markets.js';

/** January to December, around 1, by the market's category. */
const MONTHS: Record<string, readonly number[]> = {
  'outdoor gear shop': [0.8, 0.8, 0.95, 1.1, 1.2, 1.25, 1.2, 1.1, 0.95, 0.85, 0.95, 1.05],
  'analytics tool': [1.05, 1.05, 1.1, 1.05, 1.0, 0.95, 0.9, 0.8, 1.05, 1.1, 1.05, 0.85],
  'coffee roaster': [1.0, 0.95, 0.95, 0.9, 0.9, 0.85, 0.85, 0.85, 0.95, 1.05, 1.25, 1.45],
  'solar installer': [0.75, 0.85, 1.1, 1.2, 1.2, 1.15, 1.05, 1.0, 1.0, 0.95, 0.85, 0.7],
  'travel agency': [1.35, 1.2, 1.05, 1.0, 0.95, 0.95, 0.9, 0.85, 0.9, 0.95, 0.9, 0.95],
  'dental clinic': [1.1, 1.05, 1.05, 1.0, 1.0, 0.95, 0.9, 0.85, 1.05, 1.05, 1.0, 0.8],
  gym: [1.45, 1.25, 1.1, 1.0, 1.0, 0.9, 0.85, 0.85, 1.05, 1.0, 0.9, 0.75],
  bakery: [0.9, 0.95, 0.95, 1.05, 1.0, 0.95, 0.9, 0.9, 0.95, 1.0, 1.05, 1.4],
  'law firm': [1.15, 1.05, 1.05, 1.0, 1.0, 0.95, 0.9, 0.85, 1.05, 1.05, 1.0, 0.8],
  'home builder': [0.85, 0.95, 1.1, 1.15, 1.15, 1.1, 1.05, 1.0, 1.0, 0.95, 0.85, 0.75],
  'cosmetics brand': [0.9, 1.05, 0.95, 0.95, 1.0, 0.95, 0.9, 0.9, 0.95, 1.0, 1.25, 1.4],
};

/** A weekday's and a weekend day's traffic, by kind of business. */
const WEEK: Record<BusinessKind, readonly [weekday: number, weekend: number]> = {
  shop: [1.0, 0.92],
  software: [1.12, 0.55],
  local: [1.06, 0.78],
};
const WEEKEND_SHOPPERS = new Set(['bakery']);

/** The season's level on a date: the months' values, eased from one month's middle to the next. */
export function seasonOf(market: Market, date: string): number {
  const months = MONTHS[market.category] ?? MONTHS['outdoor gear shop']!;
  const [, month, day] = date.split('-').map(Number) as [number, number, number];
  const position = month - 1 + (day - 15) / 30;
  const from = Math.floor(position);
  const along = (1 - Math.cos(Math.PI * (position - from))) / 2;
  const at = (index: number) => months[(index + 12) % 12]!;
  return at(from) + (at(from + 1) - at(from)) * along;
}

export function weekdayOf(market: Market, date: string): number {
  const weekend = [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());
  const [weekday, weekendDay] = WEEK[market.kind];
  if (WEEKEND_SHOPPERS.has(market.category)) return weekend ? 1.25 : 0.92;
  return weekend ? weekendDay : weekday;
}

/**
 * A client's trend over `days`: `yearly` growth (−0.1 for a shrinking one), compounding, with a
 * slower or faster stretch (`bend`, a phase) so that no two clients draw the same line.
 */
export function trendOf(index: number, yearly: number, bend: number): number {
  const years = index / 365;
  return (1 + yearly) ** years * (1 + 0.06 * Math.sin(2 * Math.PI * (years * 0.8 + bend)));
}

/** How big a client of this kind is: a multiple of the demo's base of 800 sessions a day. */
export const SIZE: Record<BusinessKind, readonly [low: number, high: number]> = {
  shop: [0.5, 1.8],
  software: [1.2, 3],
  local: [0.05, 0.16],
};

// A demo client's daily provider facts: day totals and their channel, campaign, device and
// country splits. Analytics comes first, since the other providers' clicks follow its channels'
// sessions; its facts are written last, once the Google Ads days that were paused are known (those
// days Paid Search brings only a trickle of visits: bookmarks of an ad's page, other engines' ads).
import { addDays } from '../dates/civil-date.js';
import { catalog, type ProviderId } from '../reports/index.js';
import type { MetricFactInput } from '../ingest/index.js';
import { dailyMetrics, economicsOf } from './economics.js';
import { marketOf } from './markets.js';
import type { Market } from './markets.js';
import { CHANNEL_VALUES, clientMix, dayShares, splitAcross, valuesOf } from './mixes.js';
import { seededRandomFor } from './random.js';
import { seasonOf, SIZE, trendOf, weekdayOf } from './seasons.js';

export interface ClientFactsInput {
  seed: number;
  clientId: string;
  name: string;
  /** Analytics first. */
  providers: readonly ProviderId[];
  startDate: string;
  days: number;
}

/** The campaigns every client once had: each day's campaign shares draw this many numbers. */
const CAMPAIGN_DRAWS = 5;

/** What is left of Paid Search's share on a day Google Ads was paused. */
const PAUSED_PAID_SEARCH = 0.15;

interface Day {
  date: string;
  total: Record<string, number>;
  /** Per dimension of the provider, the day's shares of its values. */
  shares: number[][];
}

const CHANNEL = catalog.google_analytics.dimensions.indexOf('channel');

function dayFacts(market: Market, clientId: string, provider: ProviderId, day: Day): MetricFactInput[] {
  const { date, total, shares } = day;
  return [
    { clientId, provider, date, dimension: '', dimensionValue: '', metrics: total },
    ...catalog[provider].dimensions.flatMap((dimension, index) => {
      const values = valuesOf(market, provider, dimension);
      return splitAcross(market, provider, dimension, total, shares[index]!).map((metrics, valueIndex) => {
        return { clientId, provider, date, dimension, dimensionValue: values[valueIndex]!, metrics };
      });
    }),
  ];
}

/** The day's Analytics sessions by channel, as its split writes them. */
function channelSessions(market: Market, { total, shares }: Day): Record<string, number> {
  const split = splitAcross(market, 'google_analytics', 'channel', total, shares[CHANNEL]!);
  return Object.fromEntries(CHANNEL_VALUES.map((channel, index) => [channel, split[index]!.sessions!]));
}

function withPaidSearchPaused(shares: number[][]): number[][] {
  const paid = CHANNEL_VALUES.indexOf('Paid Search');
  const channel = shares[CHANNEL]!.map((share, index) => (index === paid ? share * PAUSED_PAID_SEARCH : share));
  const sum = channel.reduce((a, b) => a + b, 0);
  return shares.map((split, index) => (index === CHANNEL ? channel.map((share) => share / sum) : split));
}

/** The client's facts; `random` is the demo's shared stream, drawn in the order it always was. */
export function clientFacts(input: ClientFactsInput, random: () => number): MetricFactInput[] {
  const market = marketOf(input.name);
  const economics = economicsOf(market, seededRandomFor(`${input.seed}|${input.name}|economics`));
  const facts: MetricFactInput[] = [];
  const analytics: Day[] = [];
  const channels: Record<string, number>[] = [];
  const pausedAds = new Set<number>();
  // Its size, growth and the phase of its trend's bend, from a PRNG of its own.
  const own = seededRandomFor(`${input.seed}|${input.name}|trend`);
  const [small, large] = SIZE[market.kind];
  const size = small + own() * (large - small);
  const yearly = -0.1 + own() * 0.5;
  const bend = own();
  for (const provider of input.providers) {
    const scale = (0.5 + random() * 2) * size;
    // The client's own mixes come from a PRNG of their own: the day totals stay what they were.
    const mixRandom = seededRandomFor(`${input.seed}|${input.name}|${provider}`);
    const mixes = catalog[provider].dimensions.map((dimension) => clientMix(market, provider, dimension, mixRandom));
    const draws = catalog[provider].dimensions.map((dimension) => (dimension === 'campaign' ? CAMPAIGN_DRAWS : 0));
    for (let index = 0; index < input.days; index++) {
      const date = addDays(input.startDate, index);
      const rhythm = weekdayOf(market, date) * seasonOf(market, date) * trendOf(index, yearly, bend);
      const total = dailyMetrics(provider, scale * rhythm, random, economics, channels[index] ?? {});
      const shares = mixes.map((mix, dimension) => dayShares(mix, random, draws[dimension]));
      const day = { date, total, shares };
      if (provider === 'google_analytics') {
        analytics.push(day);
        channels.push(channelSessions(market, day));
        continue;
      }
      if (provider === 'google_ads' && total.impressions === 0) pausedAds.add(index);
      facts.push(...dayFacts(market, input.clientId, provider, day));
    }
  }
  analytics.forEach((day, index) => {
    const shown = pausedAds.has(index) ? { ...day, shares: withPaidSearchPaused(day.shares) } : day;
    facts.push(...dayFacts(market, input.clientId, 'google_analytics', shown));
  });
  return facts;
}

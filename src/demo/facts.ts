// A demo client's daily provider facts: day totals and their channel, campaign, device and
// country splits. Analytics comes first, since the other providers' clicks follow its channels'
// sessions; its facts are written last, once the Google Ads days that were paused are known (those
// days Paid Search brings only a trickle of visits: bookmarks of an ad's page, other engines' ads).
import { addDays } from '../dates/civil-date.js';
import { catalog, type ProviderId } from '../reports/index.js';
import type { MetricFactInput } from '../ingest/index.js';
import { dailyMetrics, economicsOf } from './economics.js';
import { marketOf } from './markets.js';
import { clientMix, dayShares, DIMENSION_VALUES, splitAcross } from './mixes.js';
import { seededRandomFor } from './random.js';

export interface ClientFactsInput {
  seed: number;
  clientId: string;
  name: string;
  /** Analytics first. */
  providers: readonly ProviderId[];
  startDate: string;
  days: number;
}

/** What is left of Paid Search's share on a day Google Ads was paused. */
const PAUSED_PAID_SEARCH = 0.15;

interface Day {
  date: string;
  total: Record<string, number>;
  /** Per dimension of the provider, the day's shares of its values. */
  shares: number[][];
}

const CHANNEL = catalog.google_analytics.dimensions.indexOf('channel');

function dayFacts(clientId: string, provider: ProviderId, { date, total, shares }: Day): MetricFactInput[] {
  return [
    { clientId, provider, date, dimension: '', dimensionValue: '', metrics: total },
    ...catalog[provider].dimensions.flatMap((dimension, index) =>
      splitAcross(provider, dimension, total, shares[index]!).map((metrics, valueIndex) => {
        const dimensionValue = DIMENSION_VALUES[dimension]![valueIndex]!;
        return { clientId, provider, date, dimension, dimensionValue, metrics };
      }),
    ),
  ];
}

/** The day's Analytics sessions by channel, as its split writes them. */
function channelSessions({ total, shares }: Day): Record<string, number> {
  const split = splitAcross('google_analytics', 'channel', total, shares[CHANNEL]!);
  return Object.fromEntries(DIMENSION_VALUES.channel!.map((channel, index) => [channel, split[index]!.sessions!]));
}

function withPaidSearchPaused(shares: number[][]): number[][] {
  const paid = DIMENSION_VALUES.channel!.indexOf('Paid Search');
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
  for (const provider of input.providers) {
    const scale = 0.5 + random() * 2;
    // The client's own mixes come from a PRNG of their own: the day totals stay what they were.
    const mixRandom = seededRandomFor(`${input.seed}|${input.name}|${provider}`);
    const mixes = catalog[provider].dimensions.map((dimension) => clientMix(market, provider, dimension, mixRandom));
    for (let index = 0; index < input.days; index++) {
      const date = addDays(input.startDate, index);
      const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
      const rhythm = (weekday === 0 || weekday === 6 ? 0.75 : 1.05) * (1 + index / input.days / 2);
      const total = dailyMetrics(provider, scale * rhythm, random, economics, channels[index] ?? {});
      const day = { date, total, shares: mixes.map((mix) => dayShares(mix, random)) };
      if (provider === 'google_analytics') {
        analytics.push(day);
        channels.push(channelSessions(day));
        continue;
      }
      if (provider === 'google_ads' && total.impressions === 0) pausedAds.add(index);
      facts.push(...dayFacts(input.clientId, provider, day));
    }
  }
  analytics.forEach((day, index) => {
    const shown = pausedAds.has(index) ? { ...day, shares: withPaidSearchPaused(day.shares) } : day;
    facts.push(...dayFacts(input.clientId, 'google_analytics', shown));
  });
  return facts;
}

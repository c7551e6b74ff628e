// How a demo client's day splits across channels, campaigns, devices and countries. Each client
// has its own mix, drawn once around its kind of business (a local dentist lives on organic
// search and its home country, a software tool on desktops and referrals), and each day varies
// a little around it. Conversions, engagement and clicks lean the way they do in real accounts
// (email converts, social browses, brand campaigns are clicked). Counts split into whole numbers
// and money into cents that add up to the day's total exactly.
import { catalog, type ProviderId } from '../reports/index.js';
import { COUNTRIES, type BusinessKind, type Market } from './markets.js';

const FIXED_VALUES: Record<string, readonly string[]> = {
  channel: ['Organic Search', 'Paid Search', 'Direct', 'Referral', 'Social', 'Email'],
  device: ['desktop', 'mobile', 'tablet'],
  country: COUNTRIES,
};
export const CHANNEL_VALUES = FIXED_VALUES.channel!;

type Weights = readonly number[];
type Leans = Readonly<Record<string, number>>;
/** A campaign: its name, its usual share of the clicks' base, and how its metrics lean (LEANS). */
type Campaign = readonly [name: string, weight: number, leans: Leans];
const BRAND: Leans = { clicks: 2.6, cost: 1.3, conversions: 4 };
const GENERIC: Leans = { cost: 1.25, conversions: 0.9 };
const REMARKETING: Leans = { clicks: 0.8, cost: 0.7, conversions: 1.3, reach: 0.4 };
const PROSPECTING: Leans = { clicks: 0.55, cost: 0.5, conversions: 0.35 };
/**
 * What an agency runs for each kind of business: Shopping and catalogue ads only for a shop,
 * competitor terms for software, call and lead ads for a local firm.
 */
const CAMPAIGNS: Record<'google_ads' | 'meta_ads', Record<BusinessKind, readonly Campaign[]>> = {
  google_ads: {
    shop: [
      ['Brand', 18, BRAND],
      ['Generic search', 30, GENERIC],
      ['Shopping', 28, { clicks: 1.1, cost: 0.9, conversions: 1.2 }],
      ['Performance Max', 14, { clicks: 0.9, conversions: 1.1 }],
      ['Remarketing', 10, REMARKETING],
    ],
    software: [
      ['Brand', 24, BRAND],
      ['Generic search', 40, GENERIC],
      ['Competitor terms', 18, { clicks: 0.7, cost: 1.6, conversions: 0.6 }],
      ['Remarketing', 18, REMARKETING],
    ],
    local: [
      ['Brand', 22, BRAND],
      ['Local search', 56, GENERIC],
      ['Call-only', 14, { clicks: 1.2, conversions: 1.8 }],
      ['Remarketing', 8, REMARKETING],
    ],
  },
  meta_ads: {
    shop: [
      ['Prospecting', 48, PROSPECTING],
      ['Retargeting', 34, REMARKETING],
      ['Catalogue sales', 18, { conversions: 1.4 }],
    ],
    software: [
      ['Prospecting', 46, PROSPECTING],
      ['Retargeting', 40, REMARKETING],
      ['Webinar sign-ups', 14, { clicks: 1.2, conversions: 0.6 }],
    ],
    local: [
      ['Local awareness', 46, { clicks: 0.6, conversions: 0.4, reach: 1.5 }],
      ['Retargeting', 30, REMARKETING],
      ['Lead forms', 24, { conversions: 1.8 }],
    ],
  },
};
const campaignsOf = (market: Market, provider: ProviderId) =>
  CAMPAIGNS[provider === 'meta_ads' ? 'meta_ads' : 'google_ads'][market.kind];

/** The values of a provider's dimension for a client: its campaigns are its kind's. */
export function valuesOf(market: Market, provider: ProviderId, dimension: string): readonly string[] {
  return dimension === 'campaign' ? campaignsOf(market, provider).map(([name]) => name) : FIXED_VALUES[dimension]!;
}

const CHANNELS: Record<BusinessKind, Weights> = {
  shop: [36, 18, 20, 6, 12, 8],
  software: [42, 14, 22, 12, 5, 5],
  local: [48, 16, 24, 6, 4, 2],
};
const DEVICES: Record<BusinessKind, Weights> = { shop: [34, 60, 6], software: [68, 29, 3], local: [30, 64, 6] };
/** Outside its home country a business's visitors come roughly by market size. */
const ABROAD = [40, 20, 20, 12, 8];
const AT_HOME: Record<BusinessKind, number> = { shop: 0.7, software: 0.45, local: 0.92 };

/**
 * Per dimension value, how much more or less than its share of the base metric a metric takes:
 * clicks cost more in the US than in France, a mobile click less than a desktop one, and the home
 * country, which knows the brand, clicks its ads and results more often.
 */
const LEANS: Record<string, Record<string, Leans>> = {
  channel: {
    'Paid Search': { engaged_sessions: 0.92, new_users: 1.2, conversions: 1.35 },
    'Organic Search': { new_users: 1.15 },
    Direct: { engaged_sessions: 1.05, new_users: 0.6, conversions: 1.25 },
    Referral: { engaged_sessions: 1.05, new_users: 1.1, conversions: 0.9 },
    Social: { engaged_sessions: 0.8, new_users: 1.3, conversions: 0.45 },
    Email: { engaged_sessions: 1.12, new_users: 0.3, conversions: 1.9 },
  },
  device: {
    desktop: { conversions: 1.3, clicks: 0.9, cost: 1.2 },
    mobile: { conversions: 0.8, clicks: 1.08, cost: 0.85 },
    tablet: { conversions: 0.9, clicks: 0.85, cost: 0.95 },
  },
  country: {
    US: { clicks: 1, cost: 1.25 },
    DE: { clicks: 0.9, cost: 1 },
    GB: { clicks: 1.05, cost: 1.1 },
    FR: { clicks: 0.85, cost: 0.8 },
    NL: { clicks: 0.95, cost: 0.9 },
  },
};

function leanOf(market: Market, provider: ProviderId, dimension: string, value: string, metric: string): number {
  // Value follows the conversions it comes from.
  const name = metric === 'conversion_value' ? 'conversions' : metric;
  if (dimension === 'campaign') {
    return campaignsOf(market, provider).find(([campaign]) => campaign === value)?.[2][name] ?? 1;
  }
  const home = dimension === 'country' && value === market.home && name === 'clicks' ? 1.15 : 1;
  return home * (LEANS[dimension]?.[value]?.[name] ?? 1);
}

function baseWeights(market: Market, provider: ProviderId, dimension: string): Weights {
  switch (dimension) {
    case 'channel':
      return CHANNELS[market.kind];
    case 'device':
      return DEVICES[market.kind];
    case 'campaign':
      return campaignsOf(market, provider).map(([, weight]) => weight);
    default: {
      const home = COUNTRIES.indexOf(market.home);
      const abroad = ABROAD.reduce((sum, weight, index) => sum + (index === home ? 0 : weight), 0);
      return ABROAD.map((weight, index) =>
        index === home ? AT_HOME[market.kind] : ((1 - AT_HOME[market.kind]) * weight) / abroad,
      );
    }
  }
}

/** A client's own mix of one provider's dimension: its kind's, each share scaled by 0.75–1.25. */
export function clientMix(market: Market, provider: ProviderId, dimension: string, random: () => number): number[] {
  return baseWeights(market, provider, dimension).map((weight) => weight * (0.75 + random() * 0.5));
}

/**
 * One day's shares: the client's mix, each weight scaled by 0.85–1.15. It draws `draws` numbers
 * (at least one per value): a kind with fewer campaigns still draws what five did, so the shared
 * stream, and every number drawn after it, stays where it was.
 */
export function dayShares(mix: readonly number[], random: () => number, draws = mix.length): number[] {
  const weights = mix.map((weight) => weight * (0.85 + random() * 0.3));
  for (let extra = mix.length; extra < draws; extra++) random();
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((weight) => weight / sum);
}

/** `total` whole units over `weights` by largest remainder: whole parts that add up to `total`. */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (sum > 0 ? (total * weight) / sum : 0));
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - parts[index]! }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    parts[index]! += 1;
    left -= 1;
  }
  return parts;
}

/** A day's metrics split across a dimension's values: counts in whole numbers, the rest in hundredths. */
export function splitAcross(
  market: Market,
  provider: ProviderId,
  dimension: string,
  metrics: Record<string, number>,
  shares: readonly number[],
): Record<string, number>[] {
  const values = valuesOf(market, provider, dimension);
  const parts = Object.entries(metrics).map(([name, value]) => {
    const unit = catalog[provider].metrics[name]!.unit === 'count' ? 1 : 100;
    const weights = shares.map((share, index) => share * leanOf(market, provider, dimension, values[index]!, name));
    return [name, apportion(Math.round(value * unit), weights).map((part) => part / unit)] as const;
  });
  return shares.map((_, index) => Object.fromEntries(parts.map(([name, split]) => [name, split[index]!])));
}

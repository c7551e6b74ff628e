// How a demo client's day splits across channels, campaigns, devices and countries. Each client
// has its own mix, drawn once around its kind of business (a local dentist lives on organic
// search and its home country, a software tool on desktops and referrals), and each day varies
// a little around it. Conversions, engagement and clicks lean the way they do in real accounts
// (email converts, social browses, brand campaigns are clicked). Counts split into whole numbers
// and money into cents that add up to the day's total exactly.
import { catalog, type ProviderId } from '../reports/index.js';
import { COUNTRIES, type BusinessKind, type Market } from './markets.js';

export const DIMENSION_VALUES: Record<string, readonly string[]> = {
  campaign: ['Brand', 'Generic search', 'Retargeting', 'Prospecting', 'Shopping'],
  channel: ['Organic Search', 'Paid Search', 'Direct', 'Referral', 'Social', 'Email'],
  device: ['desktop', 'mobile', 'tablet'],
  country: COUNTRIES,
};

type Weights = readonly number[];
const CHANNELS: Record<BusinessKind, Weights> = { shop: [36, 18, 20, 6, 12, 8], software: [42, 14, 22, 12, 5, 5], local: [48, 16, 24, 6, 4, 2] };
const DEVICES: Record<BusinessKind, Weights> = { shop: [34, 60, 6], software: [68, 29, 3], local: [30, 64, 6] };
const SEARCH_CAMPAIGNS: Record<BusinessKind, Weights> = { shop: [18, 34, 12, 8, 28], software: [24, 50, 14, 10, 2], local: [22, 58, 10, 8, 2] };
const SOCIAL_CAMPAIGNS: Record<BusinessKind, Weights> = { shop: [8, 2, 34, 48, 8], software: [10, 2, 40, 46, 2], local: [10, 2, 40, 46, 2] };
/** Outside its home country a business's visitors come roughly by market size. */
const ABROAD = [40, 20, 20, 12, 8];
const AT_HOME: Record<BusinessKind, number> = { shop: 0.7, software: 0.45, local: 0.92 };

/** Per dimension value, how much more or less than its share of the base metric a metric takes. */
const LEANS: Record<string, Record<string, Record<string, number>>> = {
  channel: {
    engaged_sessions: { 'Paid Search': 0.92, Direct: 1.05, Referral: 1.05, Social: 0.8, Email: 1.12 },
    new_users: { 'Organic Search': 1.15, 'Paid Search': 1.2, Direct: 0.6, Referral: 1.1, Social: 1.3, Email: 0.3 },
    conversions: { 'Paid Search': 1.35, Direct: 1.25, Referral: 0.9, Social: 0.45, Email: 1.9 },
  },
  campaign: {
    clicks: { Brand: 2.6, Retargeting: 0.8, Prospecting: 0.55, Shopping: 1.1 },
    cost: { Brand: 1.3, 'Generic search': 1.25, Retargeting: 0.7, Prospecting: 0.5, Shopping: 0.9 },
    conversions: { Brand: 4, 'Generic search': 0.9, Retargeting: 1.3, Prospecting: 0.35, Shopping: 1.2 },
    reach: { Retargeting: 0.4 },
  },
  device: { conversions: { desktop: 1.3, mobile: 0.8, tablet: 0.9 } },
};
// Value follows the conversions it comes from.
for (const leans of Object.values(LEANS)) if (leans.conversions) leans.conversion_value = leans.conversions;

function baseWeights(market: Market, provider: ProviderId, dimension: string): Weights {
  switch (dimension) {
    case 'channel':
      return CHANNELS[market.kind];
    case 'device':
      return DEVICES[market.kind];
    case 'campaign':
      return (provider === 'meta_ads' ? SOCIAL_CAMPAIGNS : SEARCH_CAMPAIGNS)[market.kind];
    default: {
      const home = COUNTRIES.indexOf(market.home);
      const abroad = ABROAD.reduce((sum, weight, index) => sum + (index === home ? 0 : weight), 0);
      return ABROAD.map((weight, index) => (index === home ? AT_HOME[market.kind] : ((1 - AT_HOME[market.kind]) * weight) / abroad));
    }
  }
}

/** A client's own mix of one provider's dimension: its kind's, each share scaled by 0.75–1.25. */
export function clientMix(market: Market, provider: ProviderId, dimension: string, random: () => number): number[] {
  return baseWeights(market, provider, dimension).map((weight) => weight * (0.75 + random() * 0.5));
}

/** One day's shares: the client's mix, each weight scaled by 0.85–1.15 (one draw per value). */
export function dayShares(mix: readonly number[], random: () => number): number[] {
  const weights = mix.map((weight) => weight * (0.85 + random() * 0.3));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((weight) => weight / sum);
}

/** `total` whole units over `weights` by largest remainder: whole parts that add up to `total`. */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (sum > 0 ? (total * weight) / sum : 0));
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((value, index) => ({ index, remainder: value - parts[index]! })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    parts[index]! += 1;
    left -= 1;
  }
  return parts;
}

/** A day's metrics split across a dimension's values: counts in whole numbers, the rest in hundredths. */
export function splitAcross(provider: ProviderId, dimension: string, metrics: Record<string, number>, shares: readonly number[]): Record<string, number>[] {
  const values = DIMENSION_VALUES[dimension]!;
  const parts = Object.entries(metrics).map(([name, value]) => {
    const unit = catalog[provider].metrics[name]!.unit === 'count' ? 1 : 100;
    const leans = LEANS[dimension]?.[name] ?? {};
    const weights = shares.map((share, index) => share * (leans[values[index]!] ?? 1));
    return [name, apportion(Math.round(value * unit), weights).map((part) => part / unit)] as const;
  });
  return shares.map((_, index) => Object.fromEntries(parts.map(([name, split]) => [name, split[index]!])));
}

// What a demo client's day looks like in each provider. Each client has its own economics, drawn
// once for its kind of business (a click costs a software tool several times what it costs a
// coffee shop, a dentist's booking is worth more than a bag of beans), so cost per click and
// return on ad spend differ from client to client. And the providers see the same visitors:
// Google Ads counts a little more clicks than Analytics counts Paid Search sessions (some clicks
// never load the page), Meta's clicks run above Social sessions, and Search Console's clicks are
// most of Organic Search (other search engines make up the rest).
import type { ProviderId } from '../reports/index.js';
import type { BusinessKind, Market } from './markets.js';

type Range = readonly [low: number, high: number];
const within = ([low, high]: Range, random: () => number) => low + random() * (high - low);

/** The Analytics channel a provider's clicks arrive in, and how many clicks one session takes. */
export const CLICK_CHANNELS = {
  google_ads: { channel: 'Paid Search', clicksPerSession: [1.08, 1.2] },
  meta_ads: { channel: 'Social', clicksPerSession: [1.25, 1.7] },
  google_search_console: { channel: 'Organic Search', clicksPerSession: [0.7, 0.88] },
} as const satisfies Partial<Record<ProviderId, { channel: string; clicksPerSession: Range }>>;

type AdProvider = 'google_ads' | 'meta_ads';
const CPC: Record<AdProvider, Record<BusinessKind, Range>> = {
  google_ads: { shop: [0.55, 1.45], software: [2.4, 5.6], local: [1.6, 4.8] },
  meta_ads: { shop: [0.35, 0.95], software: [0.9, 2.3], local: [0.5, 1.5] },
};
const CTR: Record<AdProvider, Range> = { google_ads: [0.032, 0.078], meta_ads: [0.007, 0.017] };
const ROAS: Record<AdProvider, Range> = { google_ads: [1.7, 6.2], meta_ads: [1.1, 4.4] };
const VALUE_PER_CONVERSION: Record<BusinessKind, Range> = { shop: [38, 140], software: [180, 650], local: [90, 420] };
const SITE_CONVERSION_RATE: Record<BusinessKind, Range> = {
  shop: [0.012, 0.032],
  software: [0.008, 0.025],
  local: [0.02, 0.06],
};

interface AdEconomics {
  cpc: number;
  ctr: number;
  /** Conversions per click: what makes the client's return on ad spend (value × rate ÷ cpc) its own. */
  conversionRate: number;
}

export interface Economics {
  /** Analytics: conversions per session and the value of one. */
  conversionRate: number;
  valuePerConversion: number;
  ads: Record<AdProvider, AdEconomics>;
  /** Clicks per session of the provider's Analytics channel (CLICK_CHANNELS). */
  clicksPerSession: Record<keyof typeof CLICK_CHANNELS, number>;
  searchCtr: number;
  /** The client's usual average position in Google Search. */
  searchPosition: number;
  /** What rounding left over, by provider: a small client's 0.3 conversions a day add up to one every few days. */
  carried: Partial<Record<ProviderId, number>>;
}

/** `value` in whole units, carrying the fraction to the provider's next day. */
function carriedOver(economics: Economics, provider: ProviderId, value: number): number {
  const total = value + (economics.carried[provider] ?? 0);
  const whole = Math.floor(total);
  economics.carried[provider] = total - whole;
  return whole;
}

/** A client's economics, from a PRNG of its own (the shared one keeps drawing what it always drew). */
export function economicsOf(market: Market, random: () => number): Economics {
  const valuePerConversion = within(VALUE_PER_CONVERSION[market.kind], random);
  const ad = (provider: AdProvider): AdEconomics => {
    const cpc = within(CPC[provider][market.kind], random);
    const ctr = within(CTR[provider], random);
    return { cpc, ctr, conversionRate: Math.min(0.12, (within(ROAS[provider], random) * cpc) / valuePerConversion) };
  };
  const link = (provider: keyof typeof CLICK_CHANNELS) => within(CLICK_CHANNELS[provider].clicksPerSession, random);
  return {
    conversionRate: within(SITE_CONVERSION_RATE[market.kind], random),
    valuePerConversion,
    ads: { google_ads: ad('google_ads'), meta_ads: ad('meta_ads') },
    clicksPerSession: {
      google_ads: link('google_ads'),
      meta_ads: link('meta_ads'),
      google_search_console: link('google_search_console'),
    },
    searchCtr: within([0.018, 0.052], random),
    searchPosition: within([3.5, 14], random),
    carried: {},
  };
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

/**
 * One day's base metrics of a provider. `scale` carries the weekly rhythm and slow growth;
 * `channels` are the day's Analytics sessions by channel, which a provider's clicks follow.
 * Each call draws from `random` as many numbers as it always did (5 for Analytics, 6 for an ad
 * day, 2 for a paused one, 3 for Search Console): the rest of the demo reads on from the same stream.
 */
export function dailyMetrics(
  provider: ProviderId,
  scale: number,
  random: () => number,
  economics: Economics,
  channels: Record<string, number>,
): Record<string, number> {
  const noise = () => 0.75 + random() * 0.5;
  /** A draw as a day's wobble of ± `spread` around 1. */
  const wobble = (spread: number) => 1 + (random() - 0.5) * 2 * spread;
  switch (provider) {
    case 'google_analytics': {
      const sessions = Math.round(800 * scale * noise());
      const conversions = carriedOver(economics, provider, sessions * economics.conversionRate * noise());
      return {
        sessions,
        engaged_sessions: Math.round(sessions * 0.62 * noise()),
        users: Math.round(sessions * 0.8),
        new_users: Math.round(sessions * 0.45 * noise()),
        conversions,
        conversion_value: round(conversions * economics.valuePerConversion * noise(), 2),
      };
    }
    case 'google_ads':
    case 'meta_ads': {
      const { cpc, ctr, conversionRate } = economics.ads[provider];
      const ctrToday = ctr * wobble(0.15);
      const reach = (impressions: number): Record<string, number> =>
        provider === 'meta_ads' ? { reach: Math.round(impressions * 0.7) } : {};
      // Some days a campaign is paused: zero impressions must not break ratios.
      const paused = random() < 0.02;
      if (paused) return { impressions: 0, clicks: 0, cost: 0, conversions: 0, conversion_value: 0, ...reach(0) };
      const sessions = channels[CLICK_CHANNELS[provider].channel] ?? 0;
      // Never fewer clicks than the sessions they bring.
      const clicks = Math.max(sessions, Math.round(sessions * economics.clicksPerSession[provider] * wobble(0.04)));
      const impressions = Math.round(clicks / ctrToday);
      const conversions = carriedOver(economics, provider, clicks * conversionRate * noise());
      return {
        impressions,
        clicks,
        cost: round(clicks * cpc * wobble(0.1), 2),
        conversions,
        conversion_value: round(conversions * economics.valuePerConversion * noise(), 2),
        ...reach(impressions),
      };
    }
    case 'google_search_console': {
      const ctrToday = economics.searchCtr * wobble(0.15);
      const sessions = channels[CLICK_CHANNELS[provider].channel] ?? 0;
      const clicks = Math.round(sessions * economics.clicksPerSession[provider] * wobble(0.04));
      const impressions = Math.round(clicks / ctrToday);
      const position = Math.max(1, economics.searchPosition + (random() - 0.5) * 3);
      return { impressions, clicks, position_weighted: round(impressions * position, 1) };
    }
  }
}

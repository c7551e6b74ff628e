// The pages the demo's answers cite: the brand's own, its competitors', and articles, threads and
// reviews on the sites of its market and locale (web-sources.ts). A title says what its address
// is (a pricing page is "Pricing", a thread's title is in its slug, the site is named).
// Which page an answer cites is the shared stream's draw it always was (one page per draw, none
// alike), so the rest of the demo reads on from the same numbers.
import type { RunCitation } from '../ai-visibility/index.js';
import type { BusinessKind, Market } from './markets.js';
import { pick } from './random.js';
import { sitesFor, squashed } from './web-sources.js';

export const demoDomainOf = (name: string) => `${squashed(name)}.com`;

type OwnPage = readonly [path: string, title: string];

// More pages than an answer has citations (at most 6), so an answer can always cite a new one; as many for every
// kind of business, so an answer draws its page from the same stream whatever the brand sells. The key page is not
// among them: on the news's day no answer cites it (searches.ts).
const OWN_PAGES: Record<BusinessKind, readonly OwnPage[]> = {
  software: [
    ['pricing', 'Pricing'],
    ['blog/buying-guide', 'Buying guide'],
    ['customer-stories', 'Customer stories'],
    ['comparison', 'Comparison'],
    ['about', 'About us'],
    ['faq', 'FAQ'],
    ['blog/how-to-choose', 'How to choose'],
  ],
  shop: [
    ['delivery', 'Delivery and returns'],
    ['blog/buying-guide', 'Buying guide'],
    ['reviews', 'Customer reviews'],
    ['bestsellers', 'Bestsellers'],
    ['about', 'About us'],
    ['faq', 'FAQ'],
    ['blog/how-to-choose', 'How to choose'],
  ],
  local: [
    ['prices', 'Prices'],
    ['blog/guide', 'Guide'],
    ['reviews', 'Customer reviews'],
    ['team', 'Our team'],
    ['about', 'About us'],
    ['faq', 'FAQ'],
    ['contact', 'Contact'],
  ],
};

/** What a buyer compares first on a brand's site: a tool's features, a shop's range, a firm's services. */
const KEY_PAGES: Record<BusinessKind, OwnPage> = {
  software: ['features', 'Features'],
  shop: ['shop', 'Shop'],
  local: ['services', 'Services'],
};

const ownPage = (brand: string, [path, title]: OwnPage): RunCitation => ({
  url: `https://www.${demoDomainOf(brand)}/${path}`,
  title: `${brand} — ${title}`,
});

export const ownCitation = (brand: string, market: Market, random: () => number): RunCitation =>
  ownPage(brand, pick(random, OWN_PAGES[market.kind]));

/** The brand's key page, which the demo's news is about (searches.ts). */
export const demoKeyPageOf = (brand: string, market: Market): RunCitation => ownPage(brand, KEY_PAGES[market.kind]);

/** A competitor's page by subdomain and page kind: its path and its title. */
type PageOf = (name: string, brand: string) => [path: string, title: string];
/** A software company's site: features, a help center, billing. */
const SOFTWARE_PAGES: Record<string, Record<string, PageOf>> = {
  www: {
    features: (name) => ['features', `Features — ${name}`],
    vs: (name, brand) => [`vs-${squashed(brand)}`, `${name} vs ${brand}`],
    pricing: (name) => ['pricing', `Pricing — ${name}`],
  },
  blog: {
    features: (name) => ['new-features', `New features — the ${name} blog`],
    vs: (name) => [`${squashed(name)}-vs-alternatives`, `${name} vs the alternatives`],
    pricing: (name) => ['pricing-explained', `Pricing explained — the ${name} blog`],
  },
  help: {
    features: (name) => ['getting-started', `Getting started — ${name} Help Center`],
    vs: (name) => [`switching-to-${squashed(name)}`, `Switching to ${name} — Help Center`],
    pricing: (name) => ['billing', `Billing — ${name} Help Center`],
  },
};
/** A shop's or a local firm's: what it is, its prices, its FAQ. */
const BUSINESS_PAGES: Record<string, Record<string, PageOf>> = {
  www: {
    features: (name) => ['about', `About us — ${name}`],
    vs: (name, brand) => [`vs-${squashed(brand)}`, `${name} vs ${brand}`],
    pricing: (name) => ['prices', `Prices — ${name}`],
  },
  blog: {
    features: (name) => ['news', `News — the ${name} blog`],
    vs: (name) => [`why-${squashed(name)}`, `Why ${name} — the ${name} blog`],
    pricing: (name) => ['what-things-cost', `What things cost — the ${name} blog`],
  },
  help: {
    features: (name) => ['faq', `FAQ — ${name} Help Centre`],
    vs: (name) => [`switching-to-${squashed(name)}`, `Switching to ${name} — Help Centre`],
    pricing: (name) => ['contact', `Contact — ${name} Help Centre`],
  },
};

function competitorCitation(brand: string, market: Market, competitors: readonly string[], random: () => number) {
  const competitor = pick(random, competitors);
  const host = pick(random, ['www', 'blog', 'help'] as const);
  const pages = market.kind === 'software' ? SOFTWARE_PAGES : BUSINESS_PAGES;
  const [path, title] = pages[host]![pick(random, ['features', 'vs', 'pricing'])]!(competitor, brand);
  // Once the title's wording, this draw stays: the stream reads on from the same place. A page has one title.
  random();
  return { url: `https://${host}.${demoDomainOf(competitor)}/${path}`, title };
}

/** A competitor's page about a quarter of the time, otherwise one of the market's and locale's sites. */
export function otherCitation(
  brand: string,
  voice: { market: Market; locale: string },
  competitors: readonly string[],
  random: () => number,
): RunCitation {
  if (competitors.length && random() < 0.27) return competitorCitation(brand, voice.market, competitors, random);
  return webCitation(voice.market, voice.locale, random);
}

/** A page of the sites answers in the locale cite about the market (two draws). */
export function webCitation(market: Market, locale: string, random: () => number): RunCitation {
  return pick(random, sitesFor(market, locale))(market, Math.floor(random() * 40));
}

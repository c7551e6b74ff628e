// The pages the demo's answers cite: the brand's own, its competitors', and articles, threads and
// reviews on the web's usual sources. A title says what its address is (a pricing page is
// "Pricing", a thread's title is in its slug, the site is named), as a real page's would be.
// Which page an answer cites is the shared stream's draw it always was (one page per draw, none
// alike), so the rest of the demo reads on from the same numbers.
import type { RunCitation } from '../ai-visibility/index.js';
import type { Market } from './markets.js';
import { pick, seededRandomFor } from './random.js';

const squashed = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '');
export const demoDomainOf = (name: string) => `${squashed(name)}.com`;
const slugOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

// More pages than an answer has citations (at most 6), so an answer can always cite a new one.
// The features page is not among them: on the news's day no answer cites it (searches.ts).
const OWN_PAGES: readonly [path: string, title: string][] = [
  ['pricing', 'Pricing'], ['blog/buying-guide', 'Buying guide'], ['customer-stories', 'Customer stories'],
  ['comparison', 'Comparison'], ['about', 'About us'], ['faq', 'FAQ'], ['blog/how-to-choose', 'How to choose'],
];

export function ownCitation(brand: string, random: () => number): RunCitation {
  const [path, title] = pick(random, OWN_PAGES);
  return { url: `https://www.${demoDomainOf(brand)}/${path}`, title: `${brand} — ${title}` };
}

/** A competitor's page by subdomain and page kind: its path and its title. */
type PageOf = (name: string, brand: string) => [path: string, title: string];
const COMPETITOR_PAGES: Record<string, Record<string, PageOf>> = {
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

function competitorCitation(brand: string, competitors: readonly string[], random: () => number): RunCitation {
  const competitor = pick(random, competitors);
  const host = pick(random, ['www', 'blog', 'help'] as const);
  const [path, title] = COMPETITOR_PAGES[host]![pick(random, ['features', 'vs', 'pricing'])]!(competitor, brand);
  // Once the title's wording, this draw stays: the stream reads on from the same place. A page has one title.
  random();
  return { url: `https://${host}.${demoDomainOf(competitor)}/${path}`, title };
}

/** What the web writes about a market: headlines and questions, in English. */
function headlines(market: Market): string[] {
  const [first, second, third, fourth] = market.criteria.en;
  return [
    `The best ${market.plural.en} we tested`,
    `How to choose ${withArticle(market.category)}`,
    `What ${withArticle(market.category)} really costs`,
    `What to know about ${first} before you buy`,
    `${capitalised(market.plural.en)} compared on ${second} and ${third}`,
    `${capitalised(fourth)}: what to ask before you sign up`,
    `Switching ${market.category}? Read this first`,
    `Small businesses rate their ${market.plural.en}`,
  ];
}

/** An opaque id of `length` (3 or more) letters and digits: `n` in its first two, so never alike for two. */
function idOf(market: Market, n: number, length: number): string {
  const random = seededRandomFor(`${market.category}|${n}`);
  const rest = Array.from({ length: length - 2 }, () => Math.floor(random() * 36).toString(36));
  return `${n.toString(36).padStart(2, '0')}${rest.join('')}`;
}

/** The `n`th article of a source on a market: its headline, slug and a date in the two years before the scans. */
function article(market: Market, n: number, source: number) {
  const headline = headlines(market)[(n + source) % 8]!;
  const date = new Date(Date.UTC(2024, 8, 2) + n * 9 * 86_400_000);
  const iso = date.toISOString().slice(0, 10);
  const [year, month, day] = iso.split('-') as [string, string, string];
  const monthName = date.toLocaleString('en', { month: 'short', timeZone: 'UTC' }).toLowerCase();
  return { headline, slug: slugOf(headline), iso, year, month, day, monthName };
}

const AUTHORS = ['Dana Whitlock', 'Sam Okafor', 'Priya Raman', 'Jonas Feld', 'Lea Marchetti'];
const authorOf = (n: number) => AUTHORS[n % AUTHORS.length]!;
const productOf = (market: Market, n: number) => [...market.competitors, ...market.others][n % 6]!;

function redditThread(market: Market, n: number): RunCitation {
  const question = [
    `Which ${market.category} do you actually use`,
    `Recommendations for ${withArticle(market.category)}`,
    `Is ${market.criteria.en[0]} worth paying extra for`,
    `Anyone switched ${market.plural.en} recently`,
  ][n % 4]!;
  const url = `https://www.reddit.com/r/smallbusiness/comments/${idOf(market, n, 7)}/${slugOf(question)}/`;
  return { url, title: `${question}? : r/smallbusiness` };
}

/** Software is reviewed on G2, a shop or a practice on Yelp. */
function reviewPage(market: Market, n: number): RunCitation {
  const product = productOf(market, n);
  const slug = slugOf(product);
  return market.kind === 'software'
    ? { url: `https://www.g2.com/products/${slug}/reviews/${slug}-review-${1000 + n}`, title: `${product} review | G2` }
    : { url: `https://www.yelp.com/biz/${slug}?hrid=${idOf(market, n, 22)}`, title: `${product} - Reviews | Yelp` };
}

/** The web's usual sources, each with pages numbered 0–39 (never the same address for two numbers). */
const WEB_SOURCES: readonly ((market: Market, n: number) => RunCitation)[] = [
  redditThread,
  (market, n) => {
    const { headline, slug } = article(market, n, 0);
    const url = `https://medium.com/@${squashed(authorOf(n))}/${slug}-${idOf(market, n, 12)}`;
    return { url, title: `${headline} | by ${authorOf(n)} | Medium` };
  },
  (market, n) => {
    const { headline, slug, year, monthName, day } = article(market, n, 1);
    const url = `https://www.theguardian.com/money/${year}/${monthName}/${day}/${slug}`;
    return { url, title: `${headline} | Money | The Guardian` };
  },
  (market, n) => {
    const { headline, slug, year, month, day } = article(market, n, 2);
    const url = `https://www.forbes.com/sites/${squashed(authorOf(n))}/${year}/${month}/${day}/${slug}/`;
    return { url, title: `${headline} — Forbes` };
  },
  (market, n) => {
    const { headline, slug, year, month, day } = article(market, n, 3);
    return { url: `https://techcrunch.com/${year}/${month}/${day}/${slug}/`, title: `${headline} | TechCrunch` };
  },
  (market, n) => ({
    url: `https://www.bbc.com/news/articles/${idOf(market, n, 12)}`,
    title: `${article(market, n, 4).headline} - BBC News`,
  }),
  reviewPage,
  (market, n) => ({
    url: `https://www.trustpilot.com/reviews/${idOf(market, n, 24)}`,
    title: `${productOf(market, n + 3)} customer review | Trustpilot`,
  }),
  (market, n) => {
    const { headline, slug, iso } = article(market, n, 5);
    return { url: `https://www.bloomberg.com/news/articles/${iso}/${slug}`, title: `${headline} - Bloomberg` };
  },
];

/** A competitor's page about a quarter of the time, otherwise the web's usual sources. */
export function otherCitation(brand: string, market: Market, competitors: readonly string[], random: () => number) {
  if (competitors.length && random() < 0.27) return competitorCitation(brand, competitors, random);
  const source = pick(random, WEB_SOURCES);
  return source(market, Math.floor(random() * 40));
}

// What the demo's engines searched and read before answering. Each prompt has its own few
// searches (so the same queries recur day after day) and one shared comparison search; a run
// reads the pages it cites and a few it leaves out. The story: before the news's day a run that
// names the brand and reads its key page (a tool's features, a shop's range) cites it; on the day
// a series' visibility drops (the demo's news), the runs that leave the brand out still read it —
// read, not cited, which the pages opportunity then ranks first. And a review site of the market's
// kind is cited only by answers that name a competitor and leave the brand out: the sources
// opportunity (get the brand listed there).
// A PRNG of its own keeps the rest of the demo's numbers where they were.
import type { Run, RunCitation } from '../ai-visibility/index.js';
import { demoKeyPageOf, webCitation } from './citations.js';
import { slugOf } from './web-sources.js';
import { languageOf, type BusinessKind, type Market } from './markets.js';
import { pick, seededRandomFor } from './random.js';

type Words = (brand: string, plural: string) => string[];
/** What a German or French speaker types, by the prompt's topic: the prompts are English, the searches are not. */
const QUERIES: Record<'de' | 'fr', Record<string, Words>> = {
  de: {
    recommendations: (_, p) => [`beste ${p} 2026`, `${p} empfehlung`],
    comparisons: (b, p) => [`${p} vergleich`, `${b} alternativen`],
    reviews: (b) => [`${b} erfahrungen`, `${b} bewertungen`],
    'how-to': (_, p) => [`${p} worauf achten`, `${p} ratgeber`],
    local: (_, p) => [`${p} in der nähe`, `${p} öffnungszeiten`],
    pricing: (b, p) => [`${p} preise`, `${b} kosten`],
    delivery: (b) => [`${b} lieferzeit`, `${b} versandkosten`],
  },
  fr: {
    recommendations: (_, p) => [`meilleurs ${p} 2026`, `${p} avis`],
    comparisons: (b, p) => [`comparatif ${p}`, `${b} alternatives`],
    reviews: (b) => [`avis ${b}`, `${b} avis clients`],
    'how-to': (_, p) => [`comment choisir ${p}`, `${p} conseils`],
    local: (_, p) => [`${p} près de chez moi`, `${p} horaires`],
    pricing: (b, p) => [`prix ${p}`, `${b} tarifs`],
    delivery: (b) => [`${b} délai de livraison`, `${b} frais de port`],
  },
};

/** The run's searches in its locale's language; the last compares the brand with its first competitor. */
function searchesOf(run: Run, brand: string, competitors: readonly string[], market: Market, locale: string): string[] {
  const versus = (competitors.length ? `${brand} vs ${competitors[0]}` : `${brand} reviews`).toLowerCase();
  const language = languageOf(locale);
  if (language === 'en') {
    const base = run.prompt.replace(/\?$/, '').toLowerCase();
    return [base, base.includes('2026') ? `${base} comparison` : `${base} 2026`, `${base} reddit`, versus];
  }
  const plural = market.plural[language].toLowerCase();
  const words = QUERIES[language][run.topic ?? ''] ?? QUERIES[language].recommendations!;
  const [first, second] = words(brand.toLowerCase(), plural);
  // A criterion of the market, the same for a prompt every day.
  const criterion = market.criteria[language][run.prompt.length % 4]!.toLowerCase();
  return [first!, `${plural} ${criterion.replace(/^(l'|la |le |les )/, '')}`, second!, versus];
}

/**
 * The review site the demo's engines cite only in answers that name a competitor and not the brand, of the kind the
 * market's buyers read (a site no other answer of the market cites): software reviews for a tool, shop reviews for a
 * shop, a business directory for a local firm.
 */
const GAP_SOURCES: Record<BusinessKind, (competitor: string) => RunCitation> = {
  software: (competitor) => ({
    url: `https://www.trustradius.com/products/${slugOf(competitor)}/reviews`,
    title: `${competitor} Reviews | TrustRadius`,
  }),
  shop: (competitor) => ({
    url: `https://www.sitejabber.com/reviews/${slugOf(competitor)}`,
    title: `${competitor} Reviews | Sitejabber`,
  }),
  local: (competitor) => ({
    url: `https://www.bbb.org/profile/${slugOf(competitor)}`,
    title: `${competitor} | Better Business Bureau Profile`,
  }),
};
export const demoGapSourceOf = (competitor: string, market: Market) => GAP_SOURCES[market.kind](competitor);

/** `seedKey` names the scan: its own PRNG, so the rest of the demo draws the numbers it always drew. */
/** `news`: this scan is the news; `newsDay`: it is of the news's day, when no run cites the features page. */
export function addSearchesAndReads(
  runs: Run[],
  brand: string,
  competitors: readonly string[],
  { news, newsDay }: { news: boolean; newsDay: boolean },
  seedKey: string,
  { market, locale }: { market: Market; locale: string },
): void {
  const random = seededRandomFor(seedKey);
  const keyPage = demoKeyPageOf(brand, market);
  for (const run of runs) {
    run.searchQueries = searchesOf(run, brand, competitors, market, locale).slice(0, 2 + Math.floor(random() * 3));
    const uncited = Array.from({ length: Math.floor(random() * 3) }, () => webCitation(market, locale, random));
    const readsBrandPage = news ? run.brandMentions === 0 : random() < 0.08;
    const citations = (run.citations ??= []);
    if (
      readsBrandPage &&
      !newsDay &&
      run.brandMentions > 0 &&
      !citations.some((citation) => citation.url === keyPage.url)
    ) {
      citations.push(keyPage);
    }
    const named = (run.competitors ?? []).filter((competitor) => competitor.mentions > 0);
    if (run.brandMentions === 0 && named.length && random() < 0.3) {
      citations.push(demoGapSourceOf(pick(random, named).name, market));
    }
    // Each page once, with its title: a page read twice is one page read.
    const read = [...(readsBrandPage ? [keyPage] : []), ...citations, ...uncited];
    run.retrieved = [...new Map(read.map((page) => [page.url, { url: page.url, title: page.title ?? null }])).values()];
  }
}

// What the demo's engines searched and read before answering. Each prompt has its own few
// searches (so the same queries recur day after day) and one shared comparison search; a run
// reads the pages it cites and a few it leaves out. The story: before the news's day a run that
// names the brand and reads its features page cites it; on the day a series' visibility drops
// (the demo's news), the runs that leave the brand out still read it — read, not cited, which
// the pages opportunity then ranks first. And a review site is cited only by answers that name
// a competitor and leave the brand out: the sources opportunity (get the brand listed there).
// A PRNG of its own keeps the rest of the demo's numbers where they were.
import type { Run } from '../ai-visibility/index.js';
import { demoDomainOf } from './citations.js';
import { pick, seededRandomFor } from './random.js';

const READ_NOT_CITED = ['https://www.reddit.com/r/smallbusiness/', 'https://www.g2.com/compare/', 'https://www.capterra.com/reviews/', 'https://www.youtube.com/results?search_query='];

const searchesOf = (prompt: string, brand: string, competitors: readonly string[]): string[] => {
  const base = prompt.replace(/\?$/, '').toLowerCase();
  return [base, base.includes('2026') ? `${base} comparison` : `${base} 2026`, `${base} reddit`, competitors.length ? `${brand} vs ${competitors[0]}`.toLowerCase() : `${brand} reviews`.toLowerCase()];
};

/** The review site the demo's engines cite only in answers that name a competitor and not the brand. */
export const demoGapSourceOf = (competitor: string) => `https://www.trustradius.com/products/${demoDomainOf(competitor).replace(/\.com$/, '')}/reviews`;

/** The brand's page the engines read on the news day without citing it. */
export const demoFeaturesPageOf = (brand: string) => `https://www.${demoDomainOf(brand)}/features`;

/** `seedKey` names the scan: its own PRNG, so the rest of the demo draws the numbers it always drew. */
/** `news`: this scan is the news; `newsDay`: it is of the news's day, when no run cites the features page. */
export function addSearchesAndReads(runs: Run[], brand: string, competitors: readonly string[], { news, newsDay }: { news: boolean; newsDay: boolean }, seedKey: string): void {
  const random = seededRandomFor(seedKey);
  for (const run of runs) {
    run.searchQueries = searchesOf(run.prompt, brand, competitors).slice(0, 2 + Math.floor(random() * 3));
    const uncited = Array.from({ length: Math.floor(random() * 3) }, () => ({ url: `${pick(random, READ_NOT_CITED)}${Math.floor(random() * 20)}` }));
    const readsBrandPage = news ? run.brandMentions === 0 : random() < 0.08;
    const citations = (run.citations ??= []);
    if (readsBrandPage && !newsDay && run.brandMentions > 0 && !citations.some((citation) => citation.url === demoFeaturesPageOf(brand))) {
      citations.push({ url: demoFeaturesPageOf(brand), title: `${brand} features` });
    }
    const named = (run.competitors ?? []).filter((competitor) => competitor.mentions > 0);
    if (run.brandMentions === 0 && named.length && random() < 0.3) {
      const competitor = pick(random, named).name;
      citations.push({ url: demoGapSourceOf(competitor), title: `${competitor} Reviews | TrustRadius` });
    }
    run.retrieved = [
      ...(readsBrandPage ? [{ url: demoFeaturesPageOf(brand), title: `${brand} features` }] : []),
      ...(run.citations ?? []).map((citation) => ({ url: citation.url, title: citation.title ?? null })),
      ...uncited,
    ];
  }
}

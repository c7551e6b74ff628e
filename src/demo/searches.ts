// What the demo's engines searched and read before answering. Each prompt has its own few
// searches (so the same queries recur day after day) and one shared comparison search; a run
// reads the pages it cites and a few it leaves out. The story: on the day a series' visibility
// drops (the demo's news), the runs that leave the brand out still read its features page —
// read, not cited, which the pages opportunity then ranks first. A PRNG of its own keeps the
// rest of the demo's numbers where they were.
import type { Run } from '../ai-visibility/index.js';
import { demoDomainOf } from './answers.js';
import { pick, seededRandom } from './random.js';

const READ_NOT_CITED = ['https://www.reddit.com/r/smallbusiness/', 'https://www.g2.com/compare/', 'https://www.capterra.com/reviews/', 'https://www.youtube.com/results?search_query='];

const searchesOf = (prompt: string, brand: string, competitors: readonly string[]): string[] => {
  const base = prompt.replace(/\?$/, '').toLowerCase();
  return [base, `${base} 2026`, `${base} reddit`, competitors.length ? `${brand} vs ${competitors[0]}`.toLowerCase() : `${brand} reviews`.toLowerCase()];
};

/** The brand's page the engines read on the news day without citing it. */
export const demoFeaturesPageOf = (brand: string) => `https://www.${demoDomainOf(brand)}/features`;

/** `seedKey` names the scan: its own PRNG, so the rest of the demo draws the numbers it always drew. */
export function addSearchesAndReads(runs: Run[], brand: string, competitors: readonly string[], news: boolean, seedKey: string): void {
  const random = seededRandom([...seedKey].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619), 2166136261));
  for (const run of runs) {
    run.searchQueries = searchesOf(run.prompt, brand, competitors).slice(0, 2 + Math.floor(random() * 3));
    const uncited = Array.from({ length: Math.floor(random() * 3) }, () => ({ url: `${pick(random, READ_NOT_CITED)}${Math.floor(random() * 20)}` }));
    const readsBrandPage = news ? run.brandMentions === 0 : random() < 0.08;
    run.retrieved = [
      ...(readsBrandPage ? [{ url: demoFeaturesPageOf(brand), title: `${brand} features` }] : []),
      ...(run.citations ?? []).map((citation) => ({ url: citation.url, title: citation.title ?? null })),
      ...uncited,
    ];
  }
}

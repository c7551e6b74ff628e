// The web the demo's engines cite and read: each market's own sites (software review sites for an
// analytics tool, coffee sites for a roaster, outdoor sites for a gear shop), a few that write
// about everything, and for German and French answers sites of that language, whose headlines
// are in it. Every page has an address shaped like the site's real ones and a title that says
// what the address is; the same address always has the same title.
import type { RunCitation } from '../ai-visibility/index.js';
import type { Language, Market } from './markets.js';
import { languageOf } from './markets.js';
import { seededRandomFor } from './random.js';

/** Lower case, accents dropped (ö → o), anything else a dash: an address's words. */
export const slugOf = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
export const squashed = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '');
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** What the web writes about a market, in a language: headlines a site of that language would run. */
function headlines(market: Market, language: Language): string[] {
  const [a, b, c, d] = market.criteria[language] as readonly string[];
  const plural = market.plural[language];
  if (language === 'de') {
    return [
      `Die besten ${plural} im Test`,
      `${plural} im Vergleich: ${a} und ${b}`,
      `${c}: Darauf sollten Sie achten`,
      `${d} – was Kunden wirklich wichtig ist`,
    ];
  }
  if (language === 'fr') {
    return [
      `Comparatif 2026 des ${plural}`,
      `${capitalised(a!)} et ${b} : comment bien choisir`,
      `Ce qu'il faut savoir sur ${c}`,
      `${capitalised(d!)} : nos conseils avant de vous décider`,
    ];
  }
  return [
    `The best ${market.plural.en} we tested`,
    `How to choose ${withArticle(market.category)}`,
    `What to know about ${a} before you buy`,
    `${capitalised(plural)} compared on ${b} and ${c}`,
    `${capitalised(d!)}: what to ask first`,
    `Switching ${market.category}? Read this first`,
  ];
}

/** Questions people post in forums, in a language. */
function questions(market: Market, language: Language): string[] {
  const [a] = market.criteria[language];
  const plural = market.plural[language];
  if (language === 'de') return [`Welche ${plural} könnt ihr empfehlen`, `Erfahrungen mit ${plural}`];
  if (language === 'fr') return [`Quels ${plural} recommandez-vous`, `Vos avis sur ${a}`];
  return [
    `Which ${market.category} do you actually use`,
    `Recommendations for ${withArticle(market.category)}`,
    `Is ${a} worth paying extra for`,
    `Anyone switched ${market.plural.en} recently`,
  ];
}

/** An opaque id of `length` letters and digits, `n` in its first two (a digit first): never alike for two. */
function idOf(key: string, n: number, length: number): string {
  const random = seededRandomFor(`${key}|${n}`);
  const rest = Array.from({ length: length - 2 }, () => Math.floor(random() * 36).toString(36));
  return `${n.toString(36).padStart(2, '0')}${rest.join('')}`;
}

type Page = (market: Market, n: number) => RunCitation;
const products = (market: Market) => [...market.competitors, ...market.others];
const productOf = (market: Market, n: number) => products(market)[n % 6]!;

type Address = (slug: string, n: number) => string;

/** An article of a site: a headline in the site's language under `address(slug, n)`. */
const article =
  (language: Language, site: string, address: Address): Page =>
  (market, n) => {
    const all = headlines(market, language);
    const headline = all[n % all.length]!;
    return { url: address(slugOf(headline), n % all.length), title: `${headline} | ${site}` };
  };
const thread =
  (language: Language, site: string, address: (slug: string, id: string) => string): Page =>
  (market, n) => {
    const all = questions(market, language);
    const question = all[n % all.length]!;
    const id = idOf(`${market.category}|${site}`, n, 7);
    return { url: address(slugOf(question), id), title: `${question}? | ${site}` };
  };
const subreddit =
  (sub: string): Page =>
  (market, n) => {
    const question = questions(market, 'en')[n % 4]!;
    const id = idOf(`${market.category}|${sub}`, n, 7);
    const url = `https://www.reddit.com/r/${sub}/comments/${id}/${slugOf(question)}/`;
    return { url, title: `${question}? : r/${sub}` };
  };
const reviews =
  (site: string, address: Address): Page =>
  (market, n) => {
    const product = productOf(market, n);
    return { url: address(slugOf(product), n % 6), title: `${product} Reviews | ${site}` };
  };

const guide = (host: string, site: string, section: string) =>
  article('en', site, (slug) => `https://www.${host}/${section}/${slug}`);
const TRUSTPILOT: Page = (market, n) => {
  const product = productOf(market, n);
  const domain = `${squashed(product)}.com`;
  const title = `${product} is rated on Trustpilot | Read reviews of ${domain}`;
  return { url: `https://www.trustpilot.com/review/${domain}`, title };
};
const YELP = reviews('Yelp', (slug) => `https://www.yelp.com/biz/${slug}/reviews`);
const WHICH = guide('which.co.uk', 'Which?', 'reviews');
const FORBES = article('en', 'Forbes Advisor', (slug) => `https://www.forbes.com/advisor/${slug}/`);
const TECHCRUNCH = article('en', 'TechCrunch', (slug, n) => `https://techcrunch.com/2025/0${3 + n}/1${n}/${slug}/`);

/** English sites by the market's category; Forbes Advisor writes about every market. */
const SITES: Record<string, readonly Page[]> = {
  'outdoor gear shop': [
    guide('outdoorgearlab.com', 'OutdoorGearLab', 'topics'),
    guide('rei.com', 'REI Expert Advice', 'learn/expert-advice'),
    subreddit('CampingGear'),
    guide('switchbacktravel.com', 'Switchback Travel', 'gear'),
  ],
  'analytics tool': [
    reviews('G2', (slug) => `https://www.g2.com/products/${slug}/reviews`),
    reviews('Capterra', (slug, n) => `https://www.capterra.com/p/${180_400 + n * 37}/${slug}/reviews/`),
    subreddit('analytics'),
    TECHCRUNCH,
  ],
  'coffee roaster': [
    subreddit('Coffee'),
    guide('seriouseats.com', 'Serious Eats', 'coffee'),
    guide('sprudge.com', 'Sprudge', 'articles'),
    guide('coffeereview.com', 'Coffee Review', 'learn'),
  ],
  'solar installer': [guide('energysage.com', 'EnergySage', 'solar'), subreddit('solar'), WHICH, TRUSTPILOT],
  'travel agency': [
    guide('lonelyplanet.com', 'Lonely Planet', 'articles'),
    subreddit('travel'),
    guide('timeout.com', 'Time Out', 'travel'),
    TRUSTPILOT,
  ],
  'dental clinic': [guide('nhs.uk', 'NHS', 'live-well'), subreddit('Dentistry'), WHICH, TRUSTPILOT],
  gym: [
    subreddit('Fitness'),
    guide('menshealth.com', "Men's Health", 'fitness'),
    guide('healthline.com', 'Healthline', 'health'),
    YELP,
  ],
  bakery: [
    subreddit('Baking'),
    guide('eater.com', 'Eater', 'maps'),
    guide('bonappetit.com', 'Bon Appétit', 'story'),
    YELP,
  ],
  'law firm': [subreddit('LegalAdviceUK'), WHICH, guide('lawgazette.co.uk', 'Law Gazette', 'practice'), TRUSTPILOT],
  'home builder': [
    subreddit('RealEstate'),
    guide('houzz.com', 'Houzz', 'magazine'),
    guide('bankrate.com', 'Bankrate', 'real-estate'),
    YELP,
  ],
  'cosmetics brand': [
    subreddit('SkincareAddiction'),
    guide('allure.com', 'Allure', 'story'),
    guide('byrdie.com', 'Byrdie', 'beauty'),
    TRUSTPILOT,
  ],
};

/** Sites of German and French answers, beside the market's English ones. */
const LOCAL_SITES: Record<Exclude<Language, 'en'>, readonly Page[]> = {
  de: [
    article('de', 'Stiftung Warentest', (slug, n) => `https://www.test.de/${slug}-${5_012_300 + n * 17}-0/`),
    thread('de', 'gutefrage', (slug) => `https://www.gutefrage.net/frage/${slug}`),
    article('de', 'DER SPIEGEL', (slug, n) => `https://www.spiegel.de/wirtschaft/${slug}-a-${idOf('spiegel', n, 8)}`),
  ],
  fr: [
    article('fr', 'UFC-Que Choisir', (slug, n) => `https://www.quechoisir.org/${slug}-n${2_140 + n * 13}/`),
    article('fr', 'Le Monde', (slug, n) => `https://www.lemonde.fr/argent/article/2025/0${3 + n}/12/${slug}_${n}`),
    thread('fr', 'CommentCaMarche', (slug, id) => `https://forums.commentcamarche.net/forum/${slug}-${id}`),
  ],
};

/** The sites an answer in this locale cites: the market's, Forbes Advisor and, in German or French, that language's. */
export function sitesFor(market: Market, locale: string): readonly Page[] {
  const language = languageOf(locale);
  const local = language === 'en' ? [] : LOCAL_SITES[language];
  return [...(SITES[market.category] ?? SITES['outdoor gear shop']!), FORBES, ...local];
}

// The prompts a demo project tracks: what a real person asks an assistant about this kind of
// business. Every business is asked about by name (reviews, a rival, its alternatives); then its
// kind decides the rest (a shop is asked about delivery, a tool about plans and integrations, a
// local firm about what is near), and its market adds the questions only its buyers ask (what a
// bag of beans costs, whether a dentist takes emergencies). Local prompts are only for local firms.
import type { BusinessKind, Market } from './markets.js';

export interface DemoPrompt {
  text: string;
  topic: string;
  tags: string[];
  /** The prompt asks about the brand by name ("Is Bluebird worth it?"). */
  namesBrand: boolean;
  /** The competitor the prompt names ("Bluebird vs Fabrikam"): its answer names it too. */
  competitor: string | null;
  /** The prompt asks for alternatives to `competitor`: the answer names it but recommends others. */
  alternativesTo: boolean;
}

/** [topic, tags, text]: `{brand}`, `{competitor}`, `{category}`, `{plural}` and `{city}` are filled in. */
export type PromptTemplate = readonly [topic: string, tags: readonly string[], text: string];

const BY_NAME: readonly PromptTemplate[] = [
  ['comparisons', ['mid-funnel'], '{brand} vs {competitor}: which is better?'],
  ['comparisons', ['mid-funnel'], 'Alternatives to {competitor}'],
  ['reviews', ['bottom-of-funnel'], 'Is {brand} worth it?'],
  ['reviews', ['bottom-of-funnel'], '{brand} reviews and complaints'],
  ['reviews', ['bottom-of-funnel'], 'What do customers say about {brand}?'],
];

const BY_KIND: Record<BusinessKind, readonly PromptTemplate[]> = {
  shop: [['recommendations', ['top-of-funnel'], 'Which {plural} do people recommend in 2026?']],
  software: [
    ['recommendations', ['top-of-funnel'], 'Which {plural} do teams recommend in 2026?'],
    ['pricing', ['bottom-of-funnel', 'budget'], 'Does {brand} have a free plan?'],
    ['how-to', ['support'], 'How do I migrate from {competitor} to {brand}?'],
    ['comparisons', ['mid-funnel'], 'Best {category} for a startup'],
  ],
  local: [
    ['local', ['top-of-funnel', 'local'], 'Best {category} near me'],
    ['local', ['top-of-funnel', 'local'], 'Best {category} in {city}'],
    ['local', ['local'], 'Is {brand} in {city} any good?'],
    ['recommendations', ['top-of-funnel'], 'Which {category} in {city} has the best reviews?'],
  ],
};

/** For a shop that sends its goods (not a travel agency). */
const SHIPPING: readonly PromptTemplate[] = [
  ['delivery', ['bottom-of-funnel'], 'How long does {brand} take to deliver?'],
  ['delivery', ['mid-funnel'], 'Does {brand} ship to Europe, and what does shipping cost?'],
];

/** By the market's category: the questions only its buyers ask, at least one about price ('budget'). */
const BY_MARKET: Record<string, readonly PromptTemplate[]> = {
  'outdoor gear shop': [
    ['recommendations', ['top-of-funnel'], 'Best waterproof hiking boots for wide feet'],
    ['recommendations', ['top-of-funnel', 'budget'], 'Best budget tent for a first camping trip'],
    ['how-to', ['support'], 'What should I pack for a three-day hike?'],
    ['how-to', ['support'], 'How do I choose a sleeping bag for cold nights?'],
    ['recommendations', ['top-of-funnel'], 'Where to buy a good rain jacket online?'],
    ['how-to', ['support'], 'How should hiking boots fit?'],
    ['reviews', ['bottom-of-funnel'], 'Does {brand} have a good return policy?'],
    ['recommendations', ['top-of-funnel'], 'Best lightweight backpack for a week in the Alps'],
  ],
  'analytics tool': [
    ['recommendations', ['top-of-funnel'], 'Best Google Analytics alternative for privacy'],
    ['recommendations', ['top-of-funnel'], 'Which product analytics tool works without cookies?'],
    ['pricing', ['mid-funnel', 'budget'], 'How much does {brand} cost per month?'],
    ['how-to', ['support'], 'Is {brand} GDPR compliant?'],
    ['how-to', ['support'], 'Does {brand} integrate with Shopify?'],
    ['how-to', ['support'], 'How do I track conversions without cookies?'],
    ['comparisons', ['mid-funnel'], 'Self-hosted vs cloud analytics: which should I use?'],
  ],
  'coffee roaster': [
    ['recommendations', ['top-of-funnel'], 'Best coffee beans for espresso at home'],
    ['recommendations', ['top-of-funnel'], 'Best coffee subscription in 2026'],
    ['pricing', ['mid-funnel', 'budget'], 'How much does a good bag of specialty coffee cost?'],
    ['how-to', ['support'], 'How long do coffee beans stay fresh after roasting?'],
    ['recommendations', ['top-of-funnel'], 'Which single origin coffee is best for filter?'],
    ['how-to', ['support'], 'Light or dark roast for a moka pot?'],
    ['recommendations', ['top-of-funnel'], 'Where to buy freshly roasted coffee online?'],
  ],
  'solar installer': [
    ['pricing', ['mid-funnel', 'budget'], 'How much do solar panels cost for a house?'],
    ['how-to', ['support'], 'Are solar panels worth it in 2026?'],
    ['how-to', ['support'], 'Should I add a battery to my solar system?'],
    ['how-to', ['support'], 'How long does a solar installation take?'],
    ['pricing', ['mid-funnel'], 'Can I finance solar panels?'],
    ['how-to', ['support'], 'What warranty should a solar installer give?'],
    ['reviews', ['bottom-of-funnel'], 'Is {brand} a reliable installer?'],
  ],
  'travel agency': [
    ['recommendations', ['top-of-funnel'], 'Best all-inclusive holidays for families this summer'],
    ['pricing', ['mid-funnel', 'budget'], 'Cheapest time to book a holiday to Greece'],
    ['how-to', ['support'], 'Is it cheaper to book a package holiday or book separately?'],
    ['recommendations', ['top-of-funnel'], 'Best travel agency for a honeymoon'],
    ['how-to', ['support'], 'What happens if my package holiday is cancelled?'],
    ['recommendations', ['top-of-funnel'], 'Where to go in Europe in October?'],
    ['reviews', ['bottom-of-funnel'], 'Is {brand} ATOL protected?'],
    ['how-to', ['support'], 'Do I need travel insurance with a package holiday?'],
    ['recommendations', ['top-of-funnel'], 'Best city breaks for a long weekend in winter'],
  ],
  'dental clinic': [
    ['pricing', ['mid-funnel', 'budget'], 'How much does teeth whitening cost?'],
    ['local', ['local'], 'Emergency dentist open on Saturday in {city}'],
    ['how-to', ['support'], 'Are dental implants worth it?'],
    ['pricing', ['mid-funnel', 'budget'], 'How much is Invisalign in {city}?'],
    ['local', ['local'], 'Which dentists in {city} take new patients?'],
    ['how-to', ['support'], 'How often should I see a dental hygienist?'],
    ['reviews', ['bottom-of-funnel'], 'Is {brand} good for nervous patients?'],
  ],
  gym: [
    ['pricing', ['mid-funnel', 'budget'], 'How much is a gym membership in {city}?'],
    ['local', ['local'], 'Gyms in {city} open 24 hours'],
    ['how-to', ['support'], 'Is a personal trainer worth it for a beginner?'],
    ['recommendations', ['top-of-funnel'], 'Best gym for strength training in {city}'],
    ['how-to', ['support'], 'Can I cancel a gym contract early?'],
    ['local', ['local'], 'Which gyms in {city} have spin classes?'],
    ['reviews', ['bottom-of-funnel'], 'Does {brand} have a free trial?'],
  ],
  bakery: [
    ['local', ['local'], 'Where to get good sourdough in {city}?'],
    ['pricing', ['mid-funnel', 'budget'], 'How much does a custom birthday cake cost?'],
    ['local', ['local'], 'Bakery open early on Sunday in {city}'],
    ['recommendations', ['top-of-funnel'], 'Best croissants in {city}'],
    ['how-to', ['support'], 'How far ahead should I order a wedding cake?'],
    ['local', ['local'], 'Gluten-free bakery in {city}'],
    ['reviews', ['bottom-of-funnel'], 'Does {brand} take cake orders?'],
  ],
  'law firm': [
    ['pricing', ['mid-funnel', 'budget'], 'How much does a divorce lawyer cost in the UK?'],
    ['how-to', ['support'], 'Do I need a solicitor to make a will?'],
    ['local', ['local'], 'Employment lawyer in {city} for unfair dismissal'],
    ['pricing', ['mid-funnel', 'budget'], 'What does conveyancing cost?'],
    ['how-to', ['support'], 'What should I ask at a first meeting with a solicitor?'],
    ['local', ['local'], 'Solicitors in {city} offering a free consultation'],
    ['reviews', ['bottom-of-funnel'], 'Is {brand} good for family law?'],
  ],
  'home builder': [
    ['pricing', ['mid-funnel', 'budget'], 'How much does it cost to build a house in 2026?'],
    ['how-to', ['support'], 'How long does it take to build a new home?'],
    ['local', ['local'], 'New build homes in {city}'],
    ['how-to', ['support'], 'New build or older house: which is the better buy?'],
    ['how-to', ['support'], 'What should a new home warranty cover?'],
    ['how-to', ['support'], 'What questions should I ask a home builder?'],
    ['reviews', ['bottom-of-funnel'], 'Does {brand} build energy-efficient homes?'],
  ],
  'cosmetics brand': [
    ['recommendations', ['top-of-funnel'], 'Best foundation for sensitive skin'],
    ['recommendations', ['top-of-funnel', 'budget'], 'Best affordable vitamin C serum'],
    ['recommendations', ['top-of-funnel'], 'Which cosmetics brands are really cruelty-free?'],
    ['how-to', ['support'], 'How do I find my foundation shade online?'],
    ['recommendations', ['top-of-funnel'], 'Best refillable lipstick'],
    ['how-to', ['support'], 'Is niacinamide good for oily skin?'],
    ['reviews', ['bottom-of-funnel'], 'Is {brand} vegan?'],
  ],
};

/** The market's tracked prompts: its kind's and its own, after the questions that name the brand. */
export function promptTemplates(market: Market): readonly PromptTemplate[] {
  const shipping = market.ships ? SHIPPING : [];
  return [...BY_NAME, ...BY_KIND[market.kind], ...shipping, ...(BY_MARKET[market.category] ?? [])];
}

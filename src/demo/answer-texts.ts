// The sentences of the demo's answers, in the locale's language: a few ways to say each thing,
// filled with the market's facts (its category, what its buyers compare), so that answers read
// like an engine's and no text repeats across hundreds of runs. Names enter only where a
// sentence says so: the brands an answer names are exactly those its counts say.
import type { Sentiment } from '../ai-visibility/index.js';
import { languageOf, type Language, type Market } from './markets.js';
import { pick, shuffled } from './random.js';

/**
 * `c` holds the market's criteria in a random order (the intro takes the first ones, an answer that
 * names no brand the last two, a sentiment the last one); `p` is the category, plural.
 */
type Line = (c: readonly string[], p: string) => string;
type Named = (name: string, c: readonly string[]) => string;

interface Phrasebook {
  and: string;
  /** Before listing the brands, by the prompt's topic; any other topic gets none. */
  intro: Record<string, Line>;
  many: readonly ((list: string, p: string) => string)[];
  one: readonly ((name: string) => string)[];
  none: readonly Line[];
  sentiment: Record<Sentiment, readonly Named[]>;
  highlight: readonly ((name: string, criterion: string) => string)[];
  other: readonly ((name: string) => string)[];
  /** Before the list of an answer about alternatives: the brand to replace, named once. */
  replacing: readonly ((name: string) => string)[];
  sources: readonly string[];
}

const PHRASES: Record<Language, Phrasebook> = {
  en: {
    and: 'and',
    intro: {
      recommendations: (c) => `For most buyers, ${c[0]} and ${c[1]} matter most.`,
      comparisons: (c) => `The main differences are in ${c[0]} and ${c[1]}.`,
      reviews: (c) => `Opinions vary, mostly on ${c[0]}.`,
      'how-to': (c) => `Compare ${c[0]}, ${c[1]} and ${c[2]} before you decide.`,
      local: (c) => `Local options vary, so check recent reviews and ${c[0]} near you.`,
    },
    many: [
      (list) => `Popular choices include ${list}.`,
      (list, p) => `Frequently recommended ${p} are ${list}.`,
      (list) => `Names that come up again and again are ${list}.`,
      (list) => `Based on reviews and expert lists, consider ${list}.`,
      (list) => `Good options to look at are ${list}.`,
    ],
    one: [(name) => `A frequently recommended choice is ${name}.`, (name) => `The name that comes up most is ${name}.`],
    none: [
      () => 'There is no single best option; it depends on your needs.',
      (c) => `It depends on what matters most to you: ${c[2]} or ${c[3]}.`,
      (c, p) => `Few ${p} stand out clearly; compare ${c[2]} and ${c[3]} first.`,
      (c) => `The answer depends on your budget and on ${c[2]}.`,
    ],
    sentiment: {
      positive: [
        (brand) => `${brand} is often praised for its service and value.`,
        (brand, c) => `Reviewers like ${brand} for its ${c[0]}.`,
        (brand, c) => `Customers regularly recommend ${brand}, mostly for its ${c[0]}.`,
      ],
      negative: [
        (brand) => `${brand} gets mixed reviews, with some complaints about support.`,
        (brand, c) => `Some customers say ${brand} falls short on ${c[0]}.`,
        (brand, c) => `Recent reviews of ${brand} mention problems with ${c[0]}.`,
      ],
      neutral: [
        (brand) => `${brand} is a solid, well-known option.`,
        (brand) => `${brand} is a reasonable middle-of-the-road choice.`,
        (brand) => `${brand} covers the basics without standing out.`,
      ],
    },
    highlight: [
      (name, criterion) => `${name} stands out for its ${criterion}, according to recent reviews.`,
      (name, criterion) => `Reviewers single out ${name} for its ${criterion}.`,
      (name, criterion) => `For buyers who care most about ${criterion}, ${name} is the one to look at.`,
    ],
    other: [
      (name) => `Smaller names such as ${name} come up too.`,
      (name) => `${name} is a smaller alternative worth a look.`,
    ],
    replacing: [
      (name) => `If ${name} is not the right fit, there are good alternatives.`,
      (name) => `Plenty of buyers move away from ${name}; here is what they pick instead.`,
    ],
    sources: ['Sources are listed below.', 'See the sources below for details.'],
  },
  de: {
    and: 'und',
    intro: {
      recommendations: (c) => `Für die meisten zählen vor allem ${c[0]} und ${c[1]}.`,
      comparisons: (c) => `Die größten Unterschiede gibt es bei ${c[0]} und ${c[1]}.`,
      reviews: (c) => `Die Meinungen gehen vor allem beim Thema ${c[0]} auseinander.`,
      'how-to': (c) => `Vergleichen Sie vor der Entscheidung ${c[0]}, ${c[1]} und ${c[2]}.`,
      local: (c) => `Das Angebot vor Ort ist unterschiedlich; achten Sie auf aktuelle Bewertungen und ${c[0]}.`,
    },
    many: [
      (list, p) => `Beliebte ${p} sind ${list}.`,
      (list) => `Häufig empfohlen werden ${list}.`,
      (list) => `Immer wieder genannt werden ${list}.`,
      (list) => `Laut Bewertungen und Testberichten lohnen sich ${list}.`,
      (list) => `Einen Blick wert sind ${list}.`,
    ],
    one: [(name) => `Häufig empfohlen wird ${name}.`, (name) => `Am häufigsten genannt wird ${name}.`],
    none: [
      () => 'Eine einzige beste Wahl gibt es nicht; es hängt von Ihren Anforderungen ab.',
      (c) => `Es kommt darauf an, was Ihnen wichtiger ist: ${c[2]} oder ${c[3]}.`,
      (c, p) => `Klare Favoriten unter den ${p} gibt es kaum; vergleichen Sie zuerst ${c[2]} und ${c[3]}.`,
      (c) => `Die Antwort hängt von Ihrem Budget ab, aber auch vom Thema ${c[2]}.`,
    ],
    sentiment: {
      positive: [
        (brand) => `${brand} wird oft für Service und Preis-Leistung gelobt.`,
        (brand, c) => `In Bewertungen schneidet ${brand} beim Thema ${c[0]} gut ab.`,
        (brand, c) => `Kunden empfehlen ${brand} regelmäßig, vor allem wegen ${c[0]}.`,
      ],
      negative: [
        (brand) => `${brand} erhält gemischte Bewertungen, einige beschweren sich über den Support.`,
        (brand, c) => `Beim Thema ${c[0]} sehen manche Kunden bei ${brand} Nachholbedarf.`,
        (brand, c) => `Aktuelle Bewertungen von ${brand} nennen Probleme beim Thema ${c[0]}.`,
      ],
      neutral: [
        (brand) => `${brand} ist eine solide, bekannte Wahl.`,
        (brand) => `${brand} ist eine vernünftige Wahl aus dem Mittelfeld.`,
        (brand) => `${brand} deckt das Nötige ab, ohne besonders aufzufallen.`,
      ],
    },
    highlight: [
      (name, criterion) => `${name} überzeugt laut aktuellen Bewertungen beim Thema ${criterion}.`,
      (name, criterion) => `Tester heben bei ${name} besonders das Thema ${criterion} hervor.`,
      (name, criterion) => `Wem es vor allem auf ${criterion} ankommt, ist mit ${name} gut beraten.`,
    ],
    other: [
      (name) => `Auch kleinere Anbieter wie ${name} werden genannt.`,
      (name) => `${name} ist eine kleinere Alternative, die einen Blick wert ist.`,
    ],
    replacing: [
      (name) => `Wenn ${name} nicht passt, gibt es gute Alternativen.`,
      (name) => `Wer von ${name} wechseln möchte, hat mehrere Möglichkeiten.`,
    ],
    sources: ['Die Quellen sind unten aufgeführt.', 'Details finden Sie in den Quellen unten.'],
  },
  fr: {
    and: 'et',
    intro: {
      recommendations: (c) => `Pour la plupart des acheteurs, ${c[0]} et ${c[1]} comptent le plus.`,
      comparisons: (c) => `Les principales différences portent sur ${c[0]} et ${c[1]}.`,
      reviews: (c) => `Les avis divergent surtout sur ${c[0]}.`,
      'how-to': (c) => `Comparez ${c[0]}, ${c[1]} et ${c[2]} avant de choisir.`,
      local: (c) => `L'offre locale varie : vérifiez les avis récents et ${c[0]} près de chez vous.`,
    },
    many: [
      (list, p) => `Parmi les ${p} les plus cités : ${list}.`,
      (list) => `Les choix les plus populaires sont ${list}.`,
      (list) => `On recommande souvent ${list}.`,
      (list) => `D'après les avis et les comparatifs, ${list} sont à considérer.`,
      (list) => `Les noms qui reviennent le plus sont ${list}.`,
    ],
    one: [(name) => `Le nom qui revient le plus souvent est ${name}.`, (name) => `On recommande souvent ${name}.`],
    none: [
      () => "Il n'y a pas de meilleure option unique ; tout dépend de vos besoins.",
      (c) => `Tout dépend de ce qui compte le plus pour vous : ${c[2]} ou ${c[3]}.`,
      (c, p) => `Aucun nom ne se détache parmi les ${p} ; comparez d'abord ${c[2]} et ${c[3]}.`,
      (c) => `La réponse dépend de votre budget, mais aussi de critères comme ${c[2]}.`,
    ],
    sentiment: {
      positive: [
        (brand) => `${brand} est souvent salué pour son service et son rapport qualité-prix.`,
        (brand, c) => `Les clients apprécient ${brand} pour ${c[0]}.`,
        (brand, c) => `Les avis récents sur ${brand} mettent en avant ${c[0]}.`,
      ],
      negative: [
        (brand) => `${brand} reçoit des avis mitigés, avec des plaintes sur le service client.`,
        (brand, c) => `Des clients de ${brand} émettent des réserves sur ${c[0]}.`,
        (brand, c) => `Les avis récents sur ${brand} signalent des problèmes concernant ${c[0]}.`,
      ],
      neutral: [
        (brand) => `${brand} est une option solide et connue.`,
        (brand) => `${brand} reste un choix raisonnable, sans plus.`,
        (brand) => `${brand} fait le travail sans vraiment se démarquer.`,
      ],
    },
    highlight: [
      (name, criterion) => `${name} se distingue par ${criterion}, selon les avis récents.`,
      (name, criterion) => `Les testeurs saluent ${name} pour ${criterion}.`,
      (name, criterion) => `Si vous privilégiez ${criterion}, ${name} est un bon choix.`,
    ],
    other: [
      (name) => `Des acteurs plus petits comme ${name} sont aussi cités.`,
      (name) => `${name} est une alternative plus modeste à considérer.`,
    ],
    replacing: [
      (name) => `Si ${name} ne vous convient pas, il existe de bonnes alternatives.`,
      (name) => `Pour remplacer ${name}, plusieurs options sont souvent citées.`,
    ],
    sources: ['Les sources sont indiquées ci-dessous.', 'Voir les sources ci-dessous pour plus de détails.'],
  },
};

export interface AnswerFacts {
  topic: string;
  /** The brands the answer lists, in its order. */
  listed: readonly string[];
  /** The brand's sentiment when the answer says more about it. */
  saysMore: { brand: string; sentiment: Sentiment } | null;
  /** A competitor the answer singles out, for one of the market's criteria (its index). */
  highlighted: { name: string; criterion: number } | null;
  /** The competitor the prompt asks alternatives to: named, never among the recommendations. */
  replaced: string | null;
  other: string | null;
  cites: boolean;
}

/** An answer's text in the locale's language; `random` draws only the wording. */
export function answerText(market: Market, locale: string, facts: AnswerFacts, random: () => number): string {
  const language = languageOf(locale);
  const phrases = PHRASES[language];
  const criteria = shuffled(random, market.criteria[language]);
  const plural = market.plural[language];
  const intro = phrases.intro[facts.topic];
  const { listed } = facts;
  const list = listed.length > 1 ? `${listed.slice(0, -1).join(', ')} ${phrases.and} ${listed.at(-1)}` : listed[0];
  const sentences = [
    facts.replaced
      ? pick(random, phrases.replacing)(facts.replaced)
      : intro && random() < 0.5
        ? intro(criteria, plural)
        : '',
    listed.length > 1
      ? pick(random, phrases.many)(list!, plural)
      : list
        ? pick(random, phrases.one)(list)
        : pick(random, phrases.none)(criteria, plural),
    facts.saysMore
      ? pick(random, phrases.sentiment[facts.saysMore.sentiment])(facts.saysMore.brand, criteria.slice(3))
      : '',
    facts.highlighted
      ? pick(random, phrases.highlight)(facts.highlighted.name, market.criteria[language][facts.highlighted.criterion]!)
      : '',
    facts.other ? pick(random, phrases.other)(facts.other) : '',
    facts.cites ? pick(random, phrases.sources) : '',
  ];
  return sentences.filter(Boolean).join(' ');
}

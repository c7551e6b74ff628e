// Demo prompts and answers: tracked prompts with topics and tags, and for each scan one run per
// prompt — an answer text in the locale's language that names exactly the brands its counts say
// (each as often as its mentions), a sentiment, and 0–6 distinct citations from a plausible mix
// of the brand's, competitors' and the web's usual sources. Seeded, like the rest of the demo.
import type { Run, RunCitation, Sentiment } from '../ai-visibility/index.js';
import { answerText } from './answer-texts.js';
import { ownCitation, otherCitation } from './citations.js';
import type { Market } from './markets.js';
import { promptTemplates, type DemoPrompt } from './prompts.js';
import { pick, shuffled } from './random.js';

export type { DemoPrompt };

/** The market's prompts with its names filled in; a prompt naming a competitor takes them in turn. */
export function demoPrompts(brand: string, competitors: readonly string[], market: Market): DemoPrompt[] {
  let turn = 0;
  return promptTemplates(market).map(([topic, tags, text]) => {
    const competitor = text.includes('{competitor}') ? competitors[turn++ % competitors.length]! : null;
    const filled = text.replaceAll('{brand}', brand).replaceAll('{competitor}', competitor ?? '');
    return {
      topic,
      tags: [...tags],
      namesBrand: text.includes('{brand}'),
      competitor,
      alternativesTo: text.startsWith('Alternatives to {competitor}'),
      text: filled
        .replaceAll('{category}', market.category)
        .replaceAll('{plural}', market.plural.en)
        .replaceAll('{city}', market.city ?? ''),
    };
  });
}

/** Where and in what words a scan's answers are written; `random` draws only their wording. */
export interface AnswerVoice {
  market: Market;
  locale: string;
  random: () => number;
}

export interface RunProfile {
  visibility: number;
  /** The share of citations that point at the brand's own site. */
  ownedCitationShare: number;
  position: number;
  positive: number;
  negative: number;
  competitorShares: readonly number[];
}

/** Draws until the answer has not cited the page yet: an answer lists each source once. */
function distinctCitation(draw: () => RunCitation, cited: Set<string>): RunCitation {
  let citation = draw();
  while (cited.has(citation.url)) citation = draw();
  cited.add(citation.url);
  return citation;
}

/**
 * One run per prompt for a scan whose brand and competitors behave as `profile` says. How many
 * runs mention the brand, and with which sentiment, follow the profile exactly (which runs is
 * random, prompts that ask about the brand by name first in line): with a few dozen prompts,
 * coin flips per run would make every day's rates jump and fire signals on noise, where the
 * demo's signals should be its news.
 */
export function demoRuns(
  prompts: readonly DemoPrompt[],
  brand: string,
  competitors: readonly string[],
  profile: RunProfile,
  random: () => number,
  voice: AnswerVoice,
): Run[] {
  const order = prompts
    .map((prompt, index) => ({ index, key: random() - (prompt.namesBrand ? 1 : 0) }))
    .sort((a, b) => a.key - b.key)
    .map((entry) => entry.index);
  const mentionedCount = Math.min(prompts.length, Math.round(prompts.length * profile.visibility));
  const positive = Math.round(mentionedCount * profile.positive);
  const negative = Math.min(mentionedCount - positive, Math.round(mentionedCount * profile.negative));
  const sentiments = shuffled(
    random,
    Array.from({ length: mentionedCount }, (_, rank): Sentiment =>
      rank < positive ? 'positive' : rank < positive + negative ? 'negative' : 'neutral',
    ),
  );
  const runs = new Array<Run>(prompts.length);
  order.forEach((promptIndex, rank) => {
    runs[promptIndex] = demoRun(
      prompts[promptIndex]!,
      brand,
      competitors,
      profile,
      random,
      voice,
      sentiments[rank] ?? null,
    );
  });
  // The same for owned citations: exactly the profile's share of the scan's citations (the first
  // ones in a random order) point at the brand's site, the rest elsewhere.
  const slots = runs.flatMap((run) => (run.citations ?? []).map((_, index) => ({ citations: run.citations!, index })));
  const owned = Math.round(slots.length * profile.ownedCitationShare);
  const citedBy = new Map<RunCitation[], Set<string>>(runs.map((run) => [run.citations!, new Set()]));
  shuffled(random, slots).forEach(({ citations, index }, rank) => {
    const draw = () =>
      rank < owned ? ownCitation(brand, voice.market, random) : otherCitation(brand, voice, competitors, random);
    citations[index] = distinctCitation(draw, citedBy.get(citations)!);
  });
  return runs;
}

/** A run that mentions the brand when it has a sentiment about it. */
function demoRun(
  prompt: DemoPrompt,
  brand: string,
  competitors: readonly string[],
  profile: RunProfile,
  random: () => number,
  voice: AnswerVoice,
  sentiment: Sentiment | null,
): Run {
  const mentioned = sentiment !== null;
  const named = competitors.filter(
    (name, index) => name === prompt.competitor || random() < Math.min(0.9, profile.competitorShares[index]! * 3),
  );
  // Brands in the order the answer lists them: the brand's place follows its usual position.
  // An answer about alternatives to a competitor names it once, as the one to replace, and lists others.
  const replaced = prompt.alternativesTo ? prompt.competitor : null;
  const listed = named.filter((name) => name !== replaced);
  if (mentioned)
    listed.splice(
      Math.min(listed.length, Math.max(0, Math.round(profile.position - 1 + (random() - 0.5) * 2))),
      0,
      brand,
    );
  const ranked = random() < 0.85;
  // Each sentence that names a brand is one of its mentions: the counts are the text's.
  const saysMore = mentioned && (sentiment !== 'neutral' || random() < 0.5);
  const rivals = listed.filter((name) => name !== brand);
  const highlighted = rivals.length && random() < 0.75 ? pick(random, rivals) : null;
  const otherBrand = random() < 0.3 ? pick(random, voice.market.others) : null;
  const brandMentions = mentioned ? (saysMore ? 2 : 1) : 0;
  const competitorEntries = named.map((name) => ({
    name,
    mentions: name === highlighted ? 2 : 1,
    position: ranked && name !== replaced ? listed.indexOf(name) + 1 : null,
  }));
  const totalMentions =
    brandMentions + competitorEntries.reduce((sum, entry) => sum + entry.mentions, 0) + (otherBrand ? 1 : 0);

  // Placeholders: demoRuns decides which point at the brand.
  const citations: RunCitation[] = Array.from({ length: Math.floor(random() * 7) }, () => ({ url: '' }));

  // Which of the market's four criteria the highlighted competitor stands out for.
  const criterion = highlighted ? Math.floor(random() * 4) : 0;
  const answer = answerText(
    voice.market,
    voice.locale,
    {
      topic: prompt.topic,
      listed,
      saysMore: saysMore ? { brand, sentiment: sentiment! } : null,
      highlighted: highlighted ? { name: highlighted, criterion } : null,
      replaced,
      other: otherBrand,
      cites: citations.length > 0,
    },
    voice.random,
  );
  return {
    prompt: prompt.text,
    topic: prompt.topic,
    tags: prompt.tags,
    answer,
    brandMentions,
    totalMentions,
    position: mentioned && ranked ? listed.indexOf(brand) + 1 : null,
    sentiment,
    competitors: competitorEntries,
    citations,
  };
}

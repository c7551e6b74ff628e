// What each rule kind fires between a scan and the previous one. Pure.
import { byCodePoint, ratesOf, ratio } from '../ai-visibility/index.js';
import type { FiredSignal, ScanForRules, SignalKind, SignalRule } from './rules.js';

// Rates are ratios of integers; rounding keeps 0.5 → 0.4 a drop of 10 points, not 10.000000000000009.
const round = (value: number) => Math.round(value * 1e9) / 1e9;
const points = (rate: number) => round(rate * 100);

/** Two scans of the same project, model and locale, with their pooled rates. */
interface ScanPair {
  previous: ScanForRules;
  current: ScanForRules;
  before: ReturnType<typeof ratesOf>;
  after: ReturnType<typeof ratesOf>;
}

type Evaluator = (pair: ScanPair, threshold: number) => FiredSignal[];

type RateMetric = 'visibility' | 'averagePosition' | 'sentiment' | 'ownedCitationShare';

/** A rate of both scans compared: one signal when `fires` says so, none when either side has no rate. */
const rateSignal = (
  kind: SignalKind,
  metric: RateMetric,
  rates: (pair: ScanPair) => [number | null, number | null],
  fires: (before: number, after: number, threshold: number) => boolean,
): Evaluator => {
  return (pair, threshold) => {
    const [before, after] = rates(pair);
    if (before === null || after === null || !fires(before, after, threshold)) return [];
    return [{ kind, details: { metric, before, after, threshold, previousScanId: pair.previous.id } }];
  };
};

const EVALUATORS: Record<SignalKind, Evaluator> = {
  visibility_drop: rateSignal(
    'visibility_drop',
    'visibility',
    ({ before, after }) => [before.visibility, after.visibility],
    (before, after, threshold) => points(before - after) >= threshold,
  ),
  average_position_worse: rateSignal(
    'average_position_worse',
    'averagePosition',
    ({ before, after }) => [before.averagePosition, after.averagePosition],
    (before, after, threshold) => round(after - before) >= threshold,
  ),
  sentiment_negative: rateSignal(
    'sentiment_negative',
    'sentiment',
    ({ before, after }) => [before.sentiment, after.sentiment],
    (before, after, threshold) => before >= threshold && after < threshold,
  ),
  owned_citation_share_drop: rateSignal(
    'owned_citation_share_drop',
    'ownedCitationShare',
    ({ previous, current }) => [
      ratio(previous.ownedCitationCount, previous.citationCount),
      ratio(current.ownedCitationCount, current.citationCount),
    ],
    (before, after, threshold) => points(before - after) >= threshold,
  ),
  competitor_only_prompt: ({ previous, current }, threshold) => competitorOnlyPrompts(previous, current, threshold),
  share_of_voice_overtaken: overtakenBy,
};

/** The signals a scan fires against the previous one. A rate with a zero denominator on either side fires nothing. */
export function evaluateRules(
  previous: ScanForRules,
  current: ScanForRules,
  rules: readonly SignalRule[],
): FiredSignal[] {
  const pair: ScanPair = { previous, current, before: ratesOf(previous), after: ratesOf(current) };
  return rules.filter((rule) => rule.enabled).flatMap((rule) => EVALUATORS[rule.kind](pair, rule.threshold));
}

/** Competitors whose share of voice was within `threshold` points of the brand's and is now more than that ahead. */
function overtakenBy({ previous, current, before, after }: ScanPair, threshold: number): FiredSignal[] {
  if (before.shareOfVoice === null || after.shareOfVoice === null) return [];
  const fired: FiredSignal[] = [];
  for (const competitor of current.competitors) {
    const earlier = previous.competitors.find((candidate) => candidate.name === competitor.name);
    const competitorBefore = earlier ? ratio(earlier.mentionCount, previous.totalMentionCount) : null;
    const competitorAfter = ratio(competitor.mentionCount, current.totalMentionCount);
    if (competitorBefore === null || competitorAfter === null) continue;
    const wasBehind = points(competitorBefore - before.shareOfVoice) <= threshold;
    const isAhead = points(competitorAfter - after.shareOfVoice) > threshold;
    if (!wasBehind || !isAhead) continue;
    fired.push({
      kind: 'share_of_voice_overtaken',
      details: {
        metric: 'shareOfVoice',
        competitor: competitor.name,
        before: competitorBefore,
        after: competitorAfter,
        brandBefore: before.shareOfVoice,
        brandAfter: after.shareOfVoice,
        threshold,
        previousScanId: previous.id,
      },
    });
  }
  return fired;
}

/**
 * Prompts whose answer in this scan names no brand of ours but competitors its answer in the
 * previous scan did not name (at least `threshold` of them), one signal each; before/after count
 * the competitors named, brandBefore/brandAfter whether the brand was (1) or is (0) named.
 * A prompt the previous scan did not ask fires nothing: there is nothing to compare.
 */
function competitorOnlyPrompts(previous: ScanForRules, current: ScanForRules, threshold: number): FiredSignal[] {
  const before = new Map(previous.prompts.map((prompt) => [prompt.promptId, prompt]));
  const fired: FiredSignal[] = [];
  for (const now of current.prompts) {
    const then = before.get(now.promptId);
    if (!then || now.brandVisible) continue;
    const appeared = now.competitorsVisible.filter((name) => !then.competitorsVisible.includes(name)).sort(byCodePoint);
    if (appeared.length < threshold) continue;
    fired.push({
      kind: 'competitor_only_prompt',
      details: {
        metric: 'competitorsNamed',
        promptId: now.promptId,
        prompt: now.prompt,
        competitors: appeared,
        before: then.competitorsVisible.length,
        after: now.competitorsVisible.length,
        brandBefore: then.brandVisible ? 1 : 0,
        brandAfter: 0,
        threshold,
        previousScanId: previous.id,
      },
    });
  }
  return fired.sort((a, b) =>
    a.details.prompt! < b.details.prompt! ? -1 : a.details.prompt! > b.details.prompt! ? 1 : 0,
  );
}

// Signal rules: what counts as news between a scan and the previous scan of the same project,
// model and locale. Pure: the ingest transaction loads both scans and stores what fires.
import { byCodePoint, ratesOf, ratio, type CompetitorCounters, type ScanCounters } from '../ai-visibility/index.js';

export const SIGNAL_KINDS = [
  'visibility_drop',
  'share_of_voice_overtaken',
  'average_position_worse',
  'sentiment_negative',
  'owned_citation_share_drop',
  'competitor_only_prompt',
] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

interface RuleSpec {
  defaultThreshold: number;
  /** What the threshold means, for `signals rules` and the docs. */
  meaning: string;
  min: number;
  max: number;
}

export const RULE_SPECS: Record<SignalKind, RuleSpec> = {
  visibility_drop: {
    defaultThreshold: 10,
    meaning: 'visibility fell by at least this many percentage points',
    min: 0.01,
    max: 100,
  },
  share_of_voice_overtaken: {
    defaultThreshold: 0,
    meaning: "a competitor's share of voice rose above the brand's by more than this many points",
    min: 0,
    max: 100,
  },
  average_position_worse: {
    defaultThreshold: 1,
    meaning: 'the average position grew (worsened) by at least this much',
    min: 0.01,
    max: 100,
  },
  sentiment_negative: {
    defaultThreshold: 0,
    meaning: 'net sentiment (-1..1) crossed from at or above this value to below it',
    min: -1,
    max: 1,
  },
  owned_citation_share_drop: {
    defaultThreshold: 10,
    meaning:
      "the share of citations pointing at the project's own domains fell by at least this many percentage points",
    min: 0.01,
    max: 100,
  },
  competitor_only_prompt: {
    defaultThreshold: 1,
    meaning:
      'on a prompt whose answer does not name the brand, at least this many competitors are named ' +
      "that the previous scan's answer to it did not name",
    min: 1,
    max: 50,
  },
};

export interface SignalRule {
  kind: SignalKind;
  threshold: number;
  enabled: boolean;
}

export const isSignalKind = (value: string): value is SignalKind => (SIGNAL_KINDS as readonly string[]).includes(value);

/** The project's rules with defaults filled in for kinds it never set. */
export function effectiveRules(stored: readonly SignalRule[]): SignalRule[] {
  return SIGNAL_KINDS.map(
    (kind) =>
      stored.find((rule) => rule.kind === kind) ?? {
        kind,
        threshold: RULE_SPECS[kind].defaultThreshold,
        enabled: true,
      },
  );
}

export function thresholdProblem(kind: SignalKind, threshold: number): string | null {
  const { min, max } = RULE_SPECS[kind];
  if (!Number.isFinite(threshold) || threshold < min || threshold > max)
    return `threshold of ${kind} must be a number from ${min} to ${max}`;
  return null;
}

/** One prompt's run in a scan: whether it names the brand, and the competitors it names. */
export interface PromptVisibility {
  promptId: string;
  prompt: string;
  brandVisible: boolean;
  competitorsVisible: readonly string[];
}

export interface ScanForRules extends ScanCounters {
  id: string;
  competitors: readonly CompetitorCounters[];
  /** Its runs, one per prompt (empty for a counters-only scan). */
  prompts: readonly PromptVisibility[];
  /** Citations in the scan's runs, and those pointing at the project's own domains. */
  citationCount: number;
  ownedCitationCount: number;
}

export interface FiredSignal {
  kind: SignalKind;
  details: {
    metric: 'visibility' | 'shareOfVoice' | 'averagePosition' | 'sentiment' | 'ownedCitationShare' | 'competitorsNamed';
    before: number;
    after: number;
    threshold: number;
    previousScanId: string;
    competitor?: string;
    brandBefore?: number | null;
    brandAfter?: number | null;
    /** competitor_only_prompt: the prompt, and the competitors its answer names now and did not before. */
    promptId?: string;
    prompt?: string;
    competitors?: string[];
  };
}

// Rates are ratios of integers; rounding keeps 0.5 → 0.4 a drop of 10 points, not 10.000000000000009.
const round = (value: number) => Math.round(value * 1e9) / 1e9;
const points = (rate: number) => round(rate * 100);

/** The signals a scan fires against the previous one. A rate with a zero denominator on either side fires nothing. */
export function evaluateRules(
  previous: ScanForRules,
  current: ScanForRules,
  rules: readonly SignalRule[],
): FiredSignal[] {
  const before = ratesOf(previous);
  const after = ratesOf(current);
  const fired: FiredSignal[] = [];
  const base = { previousScanId: previous.id };
  for (const rule of rules) {
    if (!rule.enabled) continue;
    const threshold = rule.threshold;
    switch (rule.kind) {
      case 'visibility_drop':
        if (
          before.visibility !== null &&
          after.visibility !== null &&
          points(before.visibility - after.visibility) >= threshold
        ) {
          fired.push({
            kind: rule.kind,
            details: { metric: 'visibility', before: before.visibility, after: after.visibility, threshold, ...base },
          });
        }
        break;
      case 'average_position_worse':
        if (
          before.averagePosition !== null &&
          after.averagePosition !== null &&
          round(after.averagePosition - before.averagePosition) >= threshold
        ) {
          fired.push({
            kind: rule.kind,
            details: {
              metric: 'averagePosition',
              before: before.averagePosition,
              after: after.averagePosition,
              threshold,
              ...base,
            },
          });
        }
        break;
      case 'sentiment_negative':
        if (
          before.sentiment !== null &&
          after.sentiment !== null &&
          before.sentiment >= threshold &&
          after.sentiment < threshold
        ) {
          fired.push({
            kind: rule.kind,
            details: { metric: 'sentiment', before: before.sentiment, after: after.sentiment, threshold, ...base },
          });
        }
        break;
      case 'owned_citation_share_drop': {
        const shareBefore = ratio(previous.ownedCitationCount, previous.citationCount);
        const shareAfter = ratio(current.ownedCitationCount, current.citationCount);
        if (shareBefore !== null && shareAfter !== null && points(shareBefore - shareAfter) >= threshold) {
          fired.push({
            kind: rule.kind,
            details: { metric: 'ownedCitationShare', before: shareBefore, after: shareAfter, threshold, ...base },
          });
        }
        break;
      }
      case 'competitor_only_prompt':
        fired.push(...competitorOnlyPrompts(previous, current, threshold));
        break;
      case 'share_of_voice_overtaken':
        for (const competitor of current.competitors) {
          const earlier = previous.competitors.find((candidate) => candidate.name === competitor.name);
          const competitorBefore = earlier ? ratio(earlier.mentionCount, previous.totalMentionCount) : null;
          const competitorAfter = ratio(competitor.mentionCount, current.totalMentionCount);
          if (
            competitorBefore === null ||
            competitorAfter === null ||
            before.shareOfVoice === null ||
            after.shareOfVoice === null
          )
            continue;
          const wasBehind = points(competitorBefore - before.shareOfVoice) <= threshold;
          const isAhead = points(competitorAfter - after.shareOfVoice) > threshold;
          if (wasBehind && isAhead) {
            fired.push({
              kind: rule.kind,
              details: {
                metric: 'shareOfVoice',
                competitor: competitor.name,
                before: competitorBefore,
                after: competitorAfter,
                brandBefore: before.shareOfVoice,
                brandAfter: after.shareOfVoice,
                threshold,
                ...base,
              },
            });
          }
        }
        break;
    }
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

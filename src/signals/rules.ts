// Signal rules: what counts as news between a scan and the previous scan of the same project,
// model and locale. Pure: the ingest transaction loads both scans and stores what fires.
import type { CompetitorCounters, ScanCounters } from '../ai-visibility/index.js';

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
  /** A count (of competitors): a whole number. */
  whole?: true;
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
    whole: true,
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
  const { min, max, whole } = RULE_SPECS[kind];
  if (!Number.isFinite(threshold) || threshold < min || threshold > max || (whole && !Number.isInteger(threshold)))
    return `threshold of ${kind} must be a ${whole ? 'whole number' : 'number'} from ${min} to ${max}`;
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

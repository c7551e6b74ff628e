// A scan's runs (one per prompt asked) and the counters they imply. Pure: ingestion derives a
// scan's counters and its competitors' counters here, and checks counters sent beside runs
// against them; the metrics endpoint pools the stored sums, so both agree by construction.
import { createHash } from 'node:crypto';
import {
  COMPETITOR_COUNTER_FIELDS,
  COUNTER_FIELDS,
  type CompetitorCounters,
  type ScanCounters,
} from '../metrics/pooled-rates.js';

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export interface RunCompetitor {
  name: string;
  mentions: number;
  position: number | null;
}

export interface RunCitation {
  url: string;
  title?: string | null | undefined;
}

/** A page the engine read before answering. */
export interface RunRetrieval {
  url: string;
  title?: string | null | undefined;
}

export interface Run {
  prompt: string;
  topic?: string | null | undefined;
  tags?: string[] | undefined;
  answer: string;
  brandMentions: number;
  totalMentions: number;
  position: number | null;
  sentiment: Sentiment | null;
  competitors?: RunCompetitor[] | undefined;
  citations?: RunCitation[] | undefined;
  /** The web searches the engine ran, in its order. */
  searchQueries?: string[] | undefined;
  retrieved?: RunRetrieval[] | undefined;
}

const SENTIMENT_COUNTER: Record<Sentiment, 'positiveCount' | 'neutralCount' | 'negativeCount'> = {
  positive: 'positiveCount',
  neutral: 'neutralCount',
  negative: 'negativeCount',
};

/** The scan's counters as the contract defines them over its runs. */
/** The competitors a run names (mentioned at least once), in its order. */
export const competitorsNamed = (run: Pick<Run, 'competitors'>): string[] =>
  (run.competitors ?? []).filter((competitor) => competitor.mentions > 0).map((competitor) => competitor.name);

export function countersFromRuns(runs: readonly Run[]): ScanCounters {
  const counters = Object.fromEntries(COUNTER_FIELDS.map((field) => [field, 0])) as unknown as ScanCounters;
  for (const run of runs) {
    counters.totalRuns += 1;
    if (run.brandMentions > 0) counters.visibilityCount += 1;
    counters.mentionCount += run.brandMentions;
    counters.totalMentionCount += run.totalMentions;
    if (run.position !== null) {
      counters.positionedCount += 1;
      counters.positionSum += run.position;
    }
    if (run.sentiment) counters[SENTIMENT_COUNTER[run.sentiment]] += 1;
  }
  return counters;
}

/** Each competitor named in any run, counted the same way as the brand; sorted by name, so run order never matters. */
export function competitorCountersFromRuns(runs: readonly Run[]): CompetitorCounters[] {
  const byName = new Map<string, CompetitorCounters>();
  for (const run of runs) {
    for (const entry of run.competitors ?? []) {
      const counters = byName.get(entry.name) ?? {
        name: entry.name,
        visibilityCount: 0,
        mentionCount: 0,
        positionedCount: 0,
        positionSum: 0,
      };
      if (entry.mentions > 0) counters.visibilityCount += 1;
      counters.mentionCount += entry.mentions;
      if (entry.position !== null) {
        counters.positionedCount += 1;
        counters.positionSum += entry.position;
      }
      byName.set(entry.name, counters);
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** "totalRuns: sent 10, the runs give 12" for every counter sent that disagrees with the runs. */
export function counterDifferences(sent: Partial<ScanCounters>, derived: ScanCounters): string[] {
  return COUNTER_FIELDS.filter((field) => sent[field] !== undefined && sent[field] !== derived[field]).map(
    (field) => `${field}: sent ${sent[field]}, the runs give ${derived[field]}`,
  );
}

/** The same for competitors: a competitor sent with counters must match its runs' entries exactly. */
export function competitorDifferences(
  sent: readonly CompetitorCounters[],
  derived: readonly CompetitorCounters[],
): string[] {
  const problems: string[] = [];
  for (const competitor of sent) {
    const fromRuns = derived.find((candidate) => candidate.name === competitor.name);
    for (const field of COMPETITOR_COUNTER_FIELDS) {
      const given = fromRuns?.[field] ?? 0;
      if (competitor[field] !== given)
        problems.push(`competitor ${competitor.name} ${field}: sent ${competitor[field]}, the runs give ${given}`);
    }
  }
  for (const competitor of derived) {
    if (!sent.some((candidate) => candidate.name === competitor.name))
      problems.push(`competitor ${competitor.name} appears in the runs but not in competitors`);
  }
  return problems;
}

/** Rules of one run beyond its schema; `index` names it in messages. */
export function runProblems(run: Run, index: number): string[] {
  const label = `runs[${index}]`;
  const problems: string[] = [];
  if (run.brandMentions === 0 && run.position !== null)
    problems.push(`${label}: position must be null when brandMentions is 0`);
  if (run.brandMentions === 0 && run.sentiment !== null)
    problems.push(`${label}: sentiment must be null when brandMentions is 0`);
  const competitorMentions = (run.competitors ?? []).reduce((sum, competitor) => sum + competitor.mentions, 0);
  if (run.brandMentions + competitorMentions > run.totalMentions)
    problems.push(`${label}: brandMentions and competitor mentions together must be ≤ totalMentions`);
  const names = new Set<string>();
  for (const competitor of run.competitors ?? []) {
    if (names.has(competitor.name)) problems.push(`${label}: competitor ${competitor.name} is given twice`);
    names.add(competitor.name);
    if (competitor.mentions === 0 && competitor.position !== null)
      problems.push(`${label}: competitor ${competitor.name} has a position but no mentions`);
  }
  return problems;
}

/**
 * A digest of the runs that does not depend on their order: a scan re-sent with its runs
 * shuffled is the same scan. Runs are keyed by prompt (one run per prompt in a scan); a run's
 * searches and pages read keep their order (the engine's).
 */
export function runsDigest(runs: readonly Run[]): string {
  const canonical = [...runs]
    .sort((a, b) => (a.prompt < b.prompt ? -1 : a.prompt > b.prompt ? 1 : 0))
    .map((run) => [
      run.prompt,
      run.topic ?? null,
      run.tags ?? [],
      run.answer,
      run.brandMentions,
      run.totalMentions,
      run.position,
      run.sentiment,
      (run.competitors ?? []).map((competitor) => [competitor.name, competitor.mentions, competitor.position]),
      (run.citations ?? []).map((citation) => [citation.url, citation.title ?? null]),
      // Only when sent, so runs stored before these fields existed keep their digest.
      ...(run.searchQueries?.length || run.retrieved?.length
        ? [run.searchQueries ?? [], (run.retrieved ?? []).map((page) => [page.url, page.title ?? null])]
        : []),
    ]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url');
}

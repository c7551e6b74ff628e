// What one line of a scan file may hold and why it cannot be stored: the schema, the counters'
// cross-field rules, and the counters derived from a line's runs. Pure: scans.ts writes what
// passes.
import { z } from 'zod';
import { DATE_RULE, isCivilDate } from '../dates/civil-date.js';
import {
  AI_MODELS,
  competitorCountersFromRuns,
  competitorDifferences,
  counterDifferences,
  countersFromRuns,
  runProblems,
  type Run,
} from '../ai-visibility/index.js';
import {
  COMPETITOR_COUNTER_FIELDS,
  COUNTER_FIELDS,
  type CompetitorCounters,
  type ScanCounters,
} from '../ai-visibility/index.js';
import { checkedArray, validateLines, type BodyState, type LineProblem, type ParsedLine } from './lines.js';
import { counter, RUN_LIMITS, runSchema } from './run-schema.js';

export interface ScanInput extends ScanCounters {
  projectId: string;
  date: string;
  model: string;
  locale: string;
  competitors?: CompetitorCounters[];
  /** The runs the counters were derived from; absent for a counters-only scan. */
  runs?: Run[];
}

export interface ProjectRules {
  workspaceId: string;
  models: readonly string[];
  locales: readonly string[];
  competitors: readonly string[];
}

const lineSchema = z
  .object({
    project: z.string().regex(/^prj_[0-9A-Za-z]{20}$/, 'project must be a project id (prj_…)'),
    date: z.string().refine(isCivilDate, `must be ${DATE_RULE}`),
    model: z.enum(AI_MODELS),
    locale: z.string().min(2).max(35),
    // Required without runs; with runs, optional and then checked against them.
    ...Object.fromEntries(COUNTER_FIELDS.map((field) => [field, counter.optional()])),
    competitors: checkedArray(
      z
        .object({
          name: z.string().min(1).max(200),
          ...Object.fromEntries(COMPETITOR_COUNTER_FIELDS.map((field) => [field, counter])),
        })
        .strict(),
      50,
    ).optional(),
    runs: checkedArray(runSchema, RUN_LIMITS.runsPerScan).optional(),
  })
  .strict();

type ScanLine = z.infer<typeof lineSchema> & Partial<ScanCounters>;

/** The counters and competitors a line stands for, or why it cannot: derived from its runs when it has them. */
function scanCountersOf(line: ScanLine): {
  counters: ScanCounters;
  competitors: CompetitorCounters[];
  problems: string[];
} {
  const sentCompetitors = (line.competitors ?? []) as CompetitorCounters[];
  if (!line.runs) {
    const missing = COUNTER_FIELDS.filter((field) => line[field] === undefined);
    const counters = Object.fromEntries(
      COUNTER_FIELDS.map((field) => [field, line[field] ?? 0]),
    ) as unknown as ScanCounters;
    return {
      counters,
      competitors: sentCompetitors,
      problems: missing.length ? [`${missing.join(', ')} required (or send runs)`] : [],
    };
  }
  const runs = line.runs as Run[];
  const problems = runs.flatMap((run, index) => runProblems(run, index));
  const seen = new Map<string, number>();
  runs.forEach((run, index) => {
    if (seen.has(run.prompt))
      problems.push(`runs[${index}]: the prompt of runs[${seen.get(run.prompt)}] again (one run per prompt in a scan)`);
    seen.set(run.prompt, index);
  });
  const counters = countersFromRuns(runs);
  const competitors = competitorCountersFromRuns(runs);
  problems.push(...counterDifferences(line, counters));
  if (line.competitors) problems.push(...competitorDifferences(sentCompetitors, competitors));
  return { counters, competitors, problems };
}

/** The same bounds for each competitor as for the brand, against the scan's runs and mentions. */
export function competitorProblems(
  scan: ScanCounters,
  competitors: readonly CompetitorCounters[],
  tracked: readonly string[],
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const competitor of competitors) {
    const label = `competitor ${competitor.name}`;
    if (!tracked.includes(competitor.name))
      problems.push(`${label} is not tracked by the project (tracked: ${tracked.join(', ') || 'none'})`);
    if (seen.has(competitor.name)) problems.push(`${label} is given twice`);
    seen.add(competitor.name);
    if (competitor.visibilityCount > scan.totalRuns) problems.push(`${label}: visibilityCount must be ≤ totalRuns`);
    if (competitor.mentionCount > scan.totalMentionCount)
      problems.push(`${label}: mentionCount must be ≤ totalMentionCount`);
    if (competitor.positionedCount > competitor.visibilityCount)
      problems.push(`${label}: positionedCount must be ≤ visibilityCount`);
    if (competitor.positionedCount > 0 && competitor.positionSum < competitor.positionedCount)
      problems.push(`${label}: positionSum must be ≥ positionedCount (positions start at 1)`);
  }
  const mentions = scan.mentionCount + competitors.reduce((sum, competitor) => sum + competitor.mentionCount, 0);
  if (competitors.length && mentions > scan.totalMentionCount)
    problems.push('mentionCount of the brand and its competitors together must be ≤ totalMentionCount');
  return problems;
}

/** The cross-field rules of the contract's counters. */
export function counterProblems(scan: ScanCounters): string[] {
  const problems: string[] = [];
  if (scan.visibilityCount > scan.totalRuns) problems.push('visibilityCount must be ≤ totalRuns');
  if (scan.mentionCount > scan.totalMentionCount) problems.push('mentionCount must be ≤ totalMentionCount');
  if (scan.positionedCount > scan.visibilityCount) problems.push('positionedCount must be ≤ visibilityCount');
  if (scan.positiveCount + scan.neutralCount + scan.negativeCount > scan.mentionCount) {
    problems.push('positiveCount + neutralCount + negativeCount must be ≤ mentionCount');
  }
  if (scan.positionedCount > 0 && scan.positionSum < scan.positionedCount)
    problems.push('positionSum must be ≥ positionedCount (positions start at 1)');
  return problems;
}

export function validateScanLines(
  lines: readonly ParsedLine[],
  projects: ReadonlyMap<string, ProjectRules>,
  body?: BodyState,
): { scans: ScanInput[]; problems: LineProblem[] } {
  const { accepted, problems } = validateLines(
    lines,
    lineSchema,
    'scan',
    (line) => {
      const { project, date, model } = line;
      // Locales compare without regard to case (BCP 47): a scan is stored under the project's spelling.
      const spelled = line.locale.toLowerCase();
      const locale = projects.get(project)?.locales.find((tracked) => tracked.toLowerCase() === spelled) ?? line.locale;
      const { counters: rest, competitors, problems: derivationProblems } = scanCountersOf(line as ScanLine);
      const lineProblems = [...derivationProblems, ...counterProblems(rest)];
      const rules = projects.get(project);
      if (!rules) lineProblems.push(`unknown project ${project}`);
      else {
        if (!rules.models.includes(model))
          lineProblems.push(`model ${model} is not tracked by the project (tracked: ${rules.models.join(', ')})`);
        if (!rules.locales.includes(locale))
          lineProblems.push(`locale ${locale} is not tracked by the project (tracked: ${rules.locales.join(', ')})`);
        lineProblems.push(...competitorProblems(rest, competitors, rules.competitors));
      }
      return {
        key: `${project}|${date}|${model}|${locale}`,
        problems: lineProblems,
        record: {
          projectId: project,
          date,
          model,
          locale,
          ...rest,
          competitors,
          ...(line.runs ? { runs: line.runs as Run[] } : {}),
        },
      };
    },
    body,
  );
  return { scans: accepted, problems };
}

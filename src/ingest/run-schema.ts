// What one run of a scan line may hold: its bounds (RUN_LIMITS) and the schema of its answer,
// citations, search queries and pages retrieved. A cited or retrieved URL must have a registrable
// domain, the source it counts under.
import { z } from 'zod';
import { registrableDomain, SENTIMENTS, urlFacts } from '../ai-visibility/index.js';
import { checkedArray } from './lines.js';

export const counter = z.number().int('must be an integer').nonnegative('must not be negative').max(2_000_000_000);

export const RUN_LIMITS = {
  runsPerScan: 1000,
  answerCharacters: 100_000,
  citationsPerAnswer: 100,
  promptCharacters: 500,
  tagsPerPrompt: 20,
  searchQueriesPerRun: 50,
  searchQueryCharacters: 500,
  retrievedPerRun: 100,
  urlCharacters: 2048,
} as const;

const position = z.number().int('must be an integer').min(1, 'positions start at 1').max(1000).nullable();

/**
 * Why a cited or retrieved URL cannot be stored: its source is its registrable domain, so a host without one (co.uk,
 * localhost) has no source to count under.
 */
function citedUrlProblem(value: string): string | null {
  const url = urlFacts(value);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return 'must be an http(s) URL';
  // Stored and indexed normalised (sources by URL, pages read), where non-ASCII is percent-encoded
  // up to nine times longer: the bound keeps it within PostgreSQL's index entry size
  // (docs/decisions/ingest-column-writes.md).
  if (url.normalised.length > RUN_LIMITS.urlCharacters)
    return (
      `must be at most ${RUN_LIMITS.urlCharacters} characters once normalised ` +
      `(non-ASCII percent-encoded: ${url.normalised.length})`
    );
  if (!registrableDomain(value))
    return (
      `host ${JSON.stringify(url.hostname.slice(0, 100))} ` +
      'has no registrable domain in the public suffix list and is no IP address'
    );
  return null;
}

const httpUrl = z
  .string()
  .max(RUN_LIMITS.urlCharacters)
  .superRefine((value, ctx) => {
    // Zod runs this past a failed max too: a longer value (a body may hold one of 60 MB) is not
    // parsed, nor remembered by url-facts.ts, whose bound counts on URLs of this length.
    const problem = value.length > RUN_LIMITS.urlCharacters ? null : citedUrlProblem(value);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

export const runSchema = z
  .object({
    prompt: z.string().trim().min(1).max(RUN_LIMITS.promptCharacters),
    topic: z.string().trim().min(1).max(100).nullable().optional(),
    tags: checkedArray(z.string().trim().min(1).max(50), RUN_LIMITS.tagsPerPrompt).optional(),
    answer: z.string().max(RUN_LIMITS.answerCharacters),
    brandMentions: counter,
    totalMentions: counter,
    position,
    sentiment: z.enum(SENTIMENTS).nullable(),
    competitors: checkedArray(
      z.object({ name: z.string().min(1).max(200), mentions: counter, position }).strict(),
      50,
    ).optional(),
    citations: checkedArray(
      z.object({ url: httpUrl, title: z.string().max(500).nullable().optional() }).strict(),
      RUN_LIMITS.citationsPerAnswer,
    ).optional(),
    searchQueries: checkedArray(
      z
        .string()
        .max(RUN_LIMITS.searchQueryCharacters)
        .refine((query) => query.trim().length > 0, 'must not be blank'),
      RUN_LIMITS.searchQueriesPerRun,
    ).optional(),
    retrieved: checkedArray(
      z.object({ url: httpUrl, title: z.string().max(500).nullable().optional() }).strict(),
      RUN_LIMITS.retrievedPerRun,
    ).optional(),
  })
  .strict();

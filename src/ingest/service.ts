// The ingest use cases shared by the HTTP endpoint and the CLI: read the body a slice at a time,
// validate each slice as it comes, and write all-or-nothing (or only the valid lines when
// skipInvalid is set). What an ingest holds is bounded by what it may write: the records of its
// valid lines (none once a line failed without skipInvalid), their keys, the projects or clients
// they name, and the first problems (lines.ts) — never every line or every problem.
import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import { ApiError } from '../errors/index.js';
import { bodySlices, type BodyItem } from './body-items.js';
import { ProblemList, type BodyState, type IngestSummary, type LineProblem, type ParsedLine } from './lines.js';
import { existingClients, validateMetricLines, writeMetricFacts, type MetricFactInput } from './metric-facts.js';
import { validateScanLines, type ProjectRules, type ScanInput } from './scan-lines.js';
import { projectRules, writeScans } from './scans.js';

export type IngestKind = 'metrics' | 'scans';

export interface IngestOptions {
  skipInvalid?: boolean;
  /**
   * Called with the workspace of each project or client the body names, when it is first found; may throw to stop the
   * ingest.
   */
  onWorkspace?: (workspaceId: string) => void;
  onProgress?: (done: number, total: number) => void;
}

/** The body: whole (the CLI's file, a text), or as it arrives (a request's chunks). */
export type IngestBody = Uint8Array | string | AsyncIterable<Uint8Array>;

const chunksOf = (body: IngestBody) =>
  typeof body === 'string' ? [Buffer.from(body)] : body instanceof Uint8Array ? [body] : body;

export interface IngestResult extends IngestSummary {
  /** Problems counted in `rejected` but not listed in `problems`. */
  omitted: number;
}

/** Ids not found that are remembered, so a body naming one on every line does not look it up in every slice. */
const NOT_FOUND_REMEMBERED = 1000;

/**
 * The ids of a slice's lines still to look up, and a way to remember the ones not found (up to
 * NOT_FOUND_REMEMBERED: a body of a million made-up ids would otherwise keep a million entries).
 * Ids are short: a line naming a longer one fails its schema anyway.
 */
function lookups(field: string, isFound: (id: string) => boolean) {
  const notFound = new Set<string>();
  return {
    toLookUp(lines: readonly ParsedLine[]): string[] {
      const ids = new Set<string>();
      for (const { value } of lines) {
        const id = (value as Record<string, unknown> | null)?.[field];
        if (typeof id === 'string' && id.length <= 64 && !isFound(id) && !notFound.has(id)) ids.add(id);
      }
      return [...ids];
    },
    lookedUp(ids: readonly string[]) {
      for (const id of ids) {
        if (isFound(id)) continue;
        if (notFound.size === NOT_FOUND_REMEMBERED) notFound.clear();
        notFound.add(id);
      }
    },
  };
}

interface Written {
  inserted: number;
  replaced: number;
  unchanged: number;
}

/**
 * A body's validation a slice at a time, keeping the records to write — until `discard`, after
 * which nothing will be written and only problems are counted.
 */
function collecting<Accepted>(
  validateSlice: (lines: ParsedLine[], body: BodyState) => Promise<{ accepted: Accepted[]; problems: LineProblem[] }>,
  writeAll: (client: pg.PoolClient, records: Accepted[], onProgress: (done: number) => void) => Promise<Written>,
) {
  const body: BodyState = { seen: new Map(), describing: true };
  let records: Accepted[] | null = [];
  return {
    async validate(lines: ParsedLine[], describing: boolean): Promise<LineProblem[]> {
      body.describing = describing;
      const { accepted, problems } = await validateSlice(lines, body);
      if (records) for (const record of accepted) records.push(record);
      return problems;
    },
    discard: () => void (records = null),
    get records() {
      return records;
    },
    write: (client: pg.PoolClient, onProgress: (done: number) => void) => writeAll(client, records ?? [], onProgress),
  };
}

/** One kind's validation, with the projects (or clients) found for the slices before. */
function validationOf(pool: pg.Pool, kind: IngestKind, onWorkspace: (workspaceId: string) => void = () => {}) {
  if (kind === 'metrics') {
    const known = new Map<string, string>();
    const clients = lookups('client', (id) => known.has(id));
    return collecting<MetricFactInput>(async (lines, body) => {
      const ids = clients.toLookUp(lines);
      if (ids.length)
        for (const [id, workspaceId] of await existingClients(pool, ids)) {
          known.set(id, workspaceId);
          onWorkspace(workspaceId);
        }
      clients.lookedUp(ids);
      const { facts, problems } = validateMetricLines(lines, known, body);
      return { accepted: facts, problems };
    }, writeMetricFacts);
  }
  const rules = new Map<string, ProjectRules>();
  const projects = lookups('project', (id) => rules.has(id));
  return collecting<ScanInput>(
    async (lines, body) => {
      const ids = projects.toLookUp(lines);
      if (ids.length)
        for (const [id, found] of await projectRules(pool, ids)) {
          rules.set(id, found);
          onWorkspace(found.workspaceId);
        }
      projects.lookedUp(ids);
      const { scans, problems } = validateScanLines(lines, rules, body);
      return { accepted: scans, problems };
    },
    (client, scans, onProgress) => writeScans(client, scans, rules, onProgress),
  );
}

/**
 * The lines a body may hold before one of them names a project or client of this service: a collector sending
 * anything else is broken, and reading on (18 MB of `{}` took 45 s) held one of the instance's few ingests.
 */
export const UNNAMED_LINES_MAX = 10_000;

/** The refusal of a body whose first lines name nothing known, with their first problems (as an invalid body's). */
export class UnnamedBody extends ApiError {
  constructor(
    readonly problems: LineProblem[],
    readonly omitted: number,
  ) {
    super(
      'invalid_body',
      `The first ${UNNAMED_LINES_MAX.toLocaleString('en-US')} lines name no project or client of this service; ` +
        'nothing was imported.',
    );
  }
}

const byLine = (a: LineProblem, b: LineProblem) => a.line - b.line;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function ingest(
  pool: pg.Pool,
  kind: IngestKind,
  body: IngestBody,
  options: IngestOptions = {},
): Promise<IngestResult> {
  let named = false;
  const validation = validationOf(pool, kind, (workspaceId) => {
    named = true;
    options.onWorkspace?.(workspaceId);
  });
  const problems = new ProblemList();
  let itemsRead = 0;
  for await (const slice of bodySlices(chunksOf(body))) {
    const lines = slice.filter((item): item is ParsedLine => 'value' in item);
    const sliceProblems = slice.filter((item: BodyItem): item is LineProblem => 'message' in item);
    if (lines.length) sliceProblems.push(...(await validation.validate(lines, !problems.isFull)));
    itemsRead += slice.length;
    if (!named && itemsRead >= UNNAMED_LINES_MAX) throw new UnnamedBody(problems.reported, problems.omitted);
    for (const problem of sliceProblems.sort(byLine)) problems.add(problem);
    if (problems.count && !options.skipInvalid) validation.discard();
    // Between slices, other requests run: a large body is many short turns, not one long one.
    await yieldToEventLoop();
  }
  const summary = { rejected: problems.count, problems: problems.reported, omitted: problems.omitted };
  const valid = validation.records?.length;
  if (valid === undefined) return { accepted: 0, replaced: 0, unchanged: 0, ...summary };
  const written: Written = valid
    ? await inTransaction(pool, (client) => validation.write(client, (done) => options.onProgress?.(done, valid)))
    : { inserted: 0, replaced: 0, unchanged: 0 };
  return {
    accepted: written.inserted,
    replaced: written.replaced,
    unchanged: written.unchanged,
    ...summary,
  };
}

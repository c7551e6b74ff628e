// The ingest use cases shared by the HTTP endpoint and the CLI: parse, validate every
// line, and write all-or-nothing (or only the valid lines when skipInvalid is set).
import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import { decodeIngestBody, parseIngestBody, type IngestSummary, type LineProblem } from './lines.js';
import { existingClientIds, validateMetricLines, writeMetricFacts } from './metric-facts.js';
import { validateScanLines } from './scan-lines.js';
import { projectRules, writeScans } from './scans.js';

export type IngestKind = 'metrics' | 'scans';

export interface IngestOptions {
  skipInvalid?: boolean;
  onProgress?: (done: number, total: number) => void;
}

const sortProblems = (problems: LineProblem[]) => problems.sort((a, b) => a.line - b.line);

export async function ingest(pool: pg.Pool, kind: IngestKind, body: Uint8Array | string, options: IngestOptions = {}): Promise<IngestSummary> {
  const { text, problems: encodingProblems } = typeof body === 'string' ? { text: body, problems: [] } : decodeIngestBody(body);
  const parsed = parseIngestBody(text);
  const lines = parsed.lines;
  const parseProblems = [...encodingProblems, ...parsed.problems];
  const ids = lines.map(({ value }) => String((value as Record<string, unknown> | null)?.[kind === 'metrics' ? 'client' : 'project'] ?? ''));
  let write: (client: pg.PoolClient) => Promise<{ inserted: number; replaced: number; unchanged?: number }>;
  let problems: LineProblem[];
  let valid: number;
  if (kind === 'metrics') {
    const validated = validateMetricLines(lines, await existingClientIds(pool, ids));
    problems = [...parseProblems, ...validated.problems];
    valid = validated.facts.length;
    write = (client) => writeMetricFacts(client, validated.facts, (done) => options.onProgress?.(done, valid));
  } else {
    const rules = await projectRules(pool, ids);
    const validated = validateScanLines(lines, rules);
    problems = [...parseProblems, ...validated.problems];
    valid = validated.scans.length;
    write = (client) => writeScans(client, validated.scans, rules, (done) => options.onProgress?.(done, valid));
  }
  sortProblems(problems);
  if (problems.length && !options.skipInvalid) return { accepted: 0, replaced: 0, rejected: problems.length, problems };
  const written = valid ? await inTransaction(pool, write) : { inserted: 0, replaced: 0, ...(kind === 'scans' ? { unchanged: 0 } : {}) };
  return { accepted: written.inserted, replaced: written.replaced, ...(written.unchanged === undefined ? {} : { unchanged: written.unchanged }), rejected: problems.length, problems };
}

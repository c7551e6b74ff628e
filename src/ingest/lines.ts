// Ingest input: NDJSON (one object per line) or one JSON array. Every line is checked
// before anything is written, so a bad file is reported whole and changes nothing. Text follows
// the service's rule (http/text-input.ts): a line that is not UTF-8, or holds a string with NUL or
// a lone surrogate, is a problem of that line naming the field.

import type { z } from 'zod';
import { findTextProblem, jsonMayHoldBadText, TEXT_RULE, utf8Text } from '../http/text-input.js';

export interface LineProblem {
  line: number;
  message: string;
}

export interface ParsedLine {
  line: number;
  value: unknown;
}

const NEWLINE = 0x0a;

/**
 * The body as text. A line whose bytes are not UTF-8 is a problem of its own and is left out
 * (as an empty line, so the numbers of the others hold); a newline byte never occurs inside a
 * UTF-8 sequence, so lines can be cut before decoding.
 */
export function decodeIngestBody(bytes: Uint8Array): { text: string; problems: LineProblem[] } {
  try {
    return { text: utf8Text(bytes), problems: [] };
  } catch {
    const lines: string[] = [];
    const problems: LineProblem[] = [];
    let start = 0;
    while (start <= bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      try {
        lines.push(utf8Text(bytes.subarray(start, end)));
      } catch {
        problems.push({ line: lines.length + 1, message: `the line is not valid UTF-8; ${TEXT_RULE}` });
        lines.push('');
      }
      start = end + 1;
    }
    return { text: lines.join('\n'), problems };
  }
}

/** A parsed line, or its problem when one of its strings breaks the text rule (looked for only where its text may hold one). */
function checkedLine(line: number, value: unknown, mayHoldBadText: boolean): ParsedLine | LineProblem {
  const refused = mayHoldBadText ? findTextProblem(value, '') : null;
  return refused ? { line, message: `${refused.path || 'line'}: ${refused.problem}; ${TEXT_RULE}` } : { line, value };
}

function partitioned(results: (ParsedLine | LineProblem)[]): { lines: ParsedLine[]; problems: LineProblem[] } {
  const lines: ParsedLine[] = [];
  const problems: LineProblem[] = [];
  for (const result of results) 'message' in result ? problems.push(result) : lines.push(result);
  return { lines, problems };
}

export function parseIngestBody(text: string): { lines: ParsedLine[]; problems: LineProblem[] } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    try {
      const array = JSON.parse(trimmed) as unknown;
      if (!Array.isArray(array)) return { lines: [], problems: [{ line: 1, message: 'expected a JSON array' }] };
      const mayHoldBadText = jsonMayHoldBadText(trimmed);
      return partitioned(array.map((value, index) => checkedLine(index + 1, value, mayHoldBadText)));
    } catch (error) {
      return { lines: [], problems: [{ line: 1, message: `invalid JSON: ${(error as Error).message}` }] };
    }
  }
  const results: (ParsedLine | LineProblem)[] = [];
  text.split('\n').forEach((raw, index) => {
    const source = raw.trim();
    if (!source) return;
    try {
      results.push(checkedLine(index + 1, JSON.parse(source), jsonMayHoldBadText(source)));
    } catch (error) {
      results.push({ line: index + 1, message: `invalid JSON: ${(error as Error).message}` });
    }
  });
  return partitioned(results);
}

export interface IngestSummary {
  accepted: number;
  replaced: number;
  /** Scans only: lines identical to the stored scan, which change nothing and emit nothing. */
  unchanged?: number;
  rejected: number;
  problems: LineProblem[];
}

/** One line's schema problems as one sentence: "field: problem; field: problem". */
const describeIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.join('.') || 'line'}: ${issue.message}`).join('; ');

/** What a line that passed its schema says: its identity in the file, what breaks its own rules, and the record it stands for. */
export interface CheckedLine<Accepted> {
  key: string;
  problems: string[];
  record: Accepted;
}

/**
 * Every line through its schema, then its own rules (`check`); a line is accepted when both pass
 * and no earlier line has the same key (`kind` names it in the problem: "same scan as line 3").
 * All of a line's problems are reported together, in one sentence.
 */
export function validateLines<Data, Accepted>(
  lines: readonly ParsedLine[],
  schema: z.ZodType<Data>,
  kind: string,
  check: (data: Data) => CheckedLine<Accepted>,
): { accepted: Accepted[]; problems: LineProblem[] } {
  const accepted: Accepted[] = [];
  const problems: LineProblem[] = [];
  const seen = new Map<string, number>();
  for (const { line, value } of lines) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      problems.push({ line, message: describeIssues(parsed.error) });
      continue;
    }
    const { key, problems: lineProblems, record } = check(parsed.data);
    if (seen.has(key)) lineProblems.push(`same ${kind} as line ${seen.get(key)}`);
    seen.set(key, line);
    if (lineProblems.length) problems.push({ line, message: lineProblems.join('; ') });
    else accepted.push(record);
  }
  return { accepted, problems };
}

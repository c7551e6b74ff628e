// Ingest input, line by line: NDJSON (one object per line) or one JSON array, cut and parsed by
// body-items.ts. Every line is checked before anything is written, so a bad file changes nothing,
// and its problems are reported in bounded space: the first ones, each in a bounded sentence, and a
// count of the rest (a body of 20 million bad lines kept every problem and took the process down).
// Text follows the service's rule (http/text-input.ts): a line that is not UTF-8, or holds a string
// with NUL or a lone surrogate, is a problem of that line naming the field.

import { z } from 'zod';
import { jsonStringBytes } from '../http/response-size.js';
import { clippedText } from '../errors/index.js';

export interface LineProblem {
  line: number;
  message: string;
}

export interface ParsedLine {
  line: number;
  value: unknown;
}

/** What one answer reports of a body's problems; the rest are counted. */
export const REPORTED_PROBLEMS = {
  count: 1000,
  /** Their JSON together, so an error answer with them stays within ERROR_BODY_MAX_BYTES. */
  bytes: 48 * 1024,
  messageCharacters: 500,
  /** Of one problem's field path (a key may be any length). */
  pathCharacters: 100,
} as const;

/** A body's problems in line order: the first ones kept (up to REPORTED_PROBLEMS), all of them counted. */
export class ProblemList {
  readonly reported: LineProblem[] = [];
  count = 0;
  private bytes = 0;
  private full = false;

  add(problem: LineProblem) {
    this.count++;
    if (this.full) return;
    const message = clippedText(problem.message, REPORTED_PROBLEMS.messageCharacters);
    // {"line":n,"message":"…"}, and the comma before it.
    const size = jsonStringBytes(message) + 32;
    if (this.reported.length === REPORTED_PROBLEMS.count || this.bytes + size > REPORTED_PROBLEMS.bytes) {
      this.full = true;
      return;
    }
    this.bytes += size;
    this.reported.push({ line: problem.line, message });
  }

  /** Whether no more problems will be reported (they are only counted). */
  get isFull() {
    return this.full;
  }

  /** Problems counted but not reported. */
  get omitted() {
    return this.count - this.reported.length;
  }
}

/** Issues described in one sentence; past the first few, a line with many says how many more. */
const ISSUES_DESCRIBED = 10;

const typeName = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * An array whose items are checked one at a time, stopping at the third bad one: a line of a
 * million numbers where objects belong made a million issues (and a 185 MB answer). The length is
 * checked first, so a long array costs one issue; the messages are zod's own.
 */
export const checkedArray = <Item extends z.ZodType>(item: Item, max: number) =>
  z.unknown().transform((items, context) => {
    if (!Array.isArray(items)) {
      context.issues.push({
        code: 'invalid_type',
        expected: 'array',
        input: items,
        message: `Invalid input: expected array, received ${typeName(items)}`,
      });
      return z.NEVER;
    }
    if (items.length > max) {
      context.issues.push({
        code: 'too_big',
        origin: 'array',
        maximum: max,
        inclusive: true,
        input: items,
        message: `Too big: expected array to have <=${max} items`,
      });
      return z.NEVER;
    }
    const checked: z.output<Item>[] = [];
    let bad = 0;
    for (let index = 0; index < items.length && bad < 3; index++) {
      const parsed = item.safeParse(items[index]);
      if (parsed.success) checked.push(parsed.data);
      else {
        bad++;
        for (const issue of parsed.error.issues)
          context.issues.push({
            code: 'custom',
            message: issue.message,
            path: [index, ...issue.path],
            input: items[index],
          });
      }
    }
    return bad ? z.NEVER : checked;
  });

/** A record of at most `max` keys, whose values are checked only then (each bad value is an issue). */
export const checkedRecord = <Value extends z.ZodType>(
  value: Value,
  max: number,
  message = `must have at most ${max} keys`,
) =>
  z
    .record(z.string(), z.unknown())
    .refine((record) => Object.keys(record).length <= max, message)
    .pipe(z.record(z.string(), value));
export interface IngestSummary {
  accepted: number;
  replaced: number;
  /** Lines identical to what is stored (a scan or a fact): they change nothing and emit nothing. */
  unchanged: number;
  rejected: number;
  problems: LineProblem[];
}

/** One line's schema problems as one sentence: "field: problem; field: problem". */
function describeIssues(error: z.ZodError): string {
  const described = error.issues
    .slice(0, ISSUES_DESCRIBED)
    .map(
      (issue) => `${clippedText(issue.path.join('.'), REPORTED_PROBLEMS.pathCharacters) || 'line'}: ${issue.message}`,
    );
  const more = error.issues.length - described.length;
  return described.join('; ') + (more ? `; ${more} more` : '');
}

/**
 * What a line that passed its schema says: its identity in the file, what breaks its own rules, and the record it
 * stands for.
 */
export interface CheckedLine<Accepted> {
  key: string;
  problems: string[];
  record: Accepted;
}

/** What the slices of a body before this one leave to it. */
export interface BodyState {
  /** Keys of the lines accepted so far, with their line numbers. */
  seen: Map<string, number>;
  /**
   * Whether problems are still worth a sentence: once the reported ones are full, a line that
   * fails its schema is only counted (zod builds its error only when asked, and describing an
   * empty object's refusal was most of the time a body of them took).
   */
  describing: boolean;
}

const UNDESCRIBED = '';

/**
 * Every line through its schema, then its own rules (`check`); a line is accepted when both pass
 * and no earlier line has the same key (`kind` names it in the problem: "same scan as line 3").
 * All of a line's problems are reported together, in one sentence. A body is validated a slice
 * at a time (`body`).
 */
export function validateLines<Data, Accepted>(
  lines: readonly ParsedLine[],
  schema: z.ZodType<Data>,
  kind: string,
  check: (data: Data) => CheckedLine<Accepted>,
  body: BodyState = { seen: new Map(), describing: true },
): { accepted: Accepted[]; problems: LineProblem[] } {
  const { seen } = body;
  const accepted: Accepted[] = [];
  const problems: LineProblem[] = [];
  for (const { line, value } of lines) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      problems.push({ line, message: body.describing ? describeIssues(parsed.error) : UNDESCRIBED });
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

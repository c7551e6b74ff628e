// Ingest input: NDJSON (one object per line) or one JSON array. Every line is checked
// before anything is written, so a bad file is reported whole and changes nothing.

import type { z } from 'zod';

export interface LineProblem {
  line: number;
  message: string;
}

export interface ParsedLine {
  line: number;
  value: unknown;
}

export function parseIngestBody(text: string): { lines: ParsedLine[]; problems: LineProblem[] } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    try {
      const array = JSON.parse(trimmed) as unknown;
      if (!Array.isArray(array)) return { lines: [], problems: [{ line: 1, message: 'expected a JSON array' }] };
      return { lines: array.map((value, index) => ({ line: index + 1, value })), problems: [] };
    } catch (error) {
      return { lines: [], problems: [{ line: 1, message: `invalid JSON: ${(error as Error).message}` }] };
    }
  }
  const lines: ParsedLine[] = [];
  const problems: LineProblem[] = [];
  text.split('\n').forEach((raw, index) => {
    const source = raw.trim();
    if (!source) return;
    try {
      lines.push({ line: index + 1, value: JSON.parse(source) });
    } catch (error) {
      problems.push({ line: index + 1, message: `invalid JSON: ${(error as Error).message}` });
    }
  });
  return { lines, problems };
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
export const describeIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.join('.') || 'line'}: ${issue.message}`).join('; ');

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first string in a line that PostgreSQL could not store (a NUL, or a lone surrogate from a
 * "\ud800" escape, which is not valid UTF-8), named by its path; null when every string is fine.
 */
export function unstorableText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? `${path || 'line'}: text must be valid UTF-8 without NUL characters` : null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = unstorableText(value[index], `${path}[${index}]`);
      if (problem) return problem;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = unstorableText(item, path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
  }
  return null;
}

// graphql-js parses nested values and selections by recursion, and graphql-armor's token limit
// counts tokens as the parser takes them, so a short document of nested brackets overflows the
// stack before any limit applies (docs/decisions/graphql-document-nesting.md). The document's
// text is scanned for its nesting before anything parses it.
import { GraphQLError, type DocumentNode } from 'graphql';

/**
 * The deepest `(`, `[` or `{` nesting a /graphql document may have: far above what the depth limit (10) and any real
 * argument literal need, far below what overflows the parser.
 */
export const MAX_DOCUMENT_NESTING = 64;

const OPENS = new Set(['(', '[', '{']);
const CLOSES = new Set([')', ']', '}']);

/**
 * Whether `source` nests brackets deeper than `limit` outside strings (block strings too) and comments; one pass, no
 * allocation.
 */
export function nestsDeeperThan(source: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (OPENS.has(char)) {
      if (++depth > limit) return true;
    } else if (CLOSES.has(char)) {
      depth = Math.max(0, depth - 1);
    } else if (char === '#') {
      while (i + 1 < source.length && source[i + 1] !== '\n' && source[i + 1] !== '\r') i++;
    } else if (char === '"') {
      i = source.startsWith('"""', i) ? endOfBlockString(source, i + 3) : endOfString(source, i + 1);
    }
  }
  return false;
}

/** The index of the closing `"""` (a block string escapes only `\"""`), or the end. */
function endOfBlockString(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === '\\' && source.startsWith('"""', i + 1)) i += 3;
    else if (source.startsWith('"""', i)) return i + 2;
  }
  return source.length;
}

/**
 * The index of the closing `"` of a one-line string, or of the line end that leaves it unterminated (the parser
 * refuses it).
 */
function endOfString(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i++;
    else if (char === '"' || char === '\n' || char === '\r') return i;
  }
  return source.length;
}

const tooDeep = () => new GraphQLError(`Syntax Error: Nesting depth limit of ${MAX_DOCUMENT_NESTING} exceeded.`);

type ParseFn = (source: string, options?: object) => DocumentNode;

/**
 * `parse` behind the nesting check; a stack overflow that still happens inside it is the same
 * refusal of the caller's document, never a 500. Refusals are syntax errors, as the token limit's
 * are (Yoga answers them GRAPHQL_PARSE_FAILED).
 */
export function parseWithinNesting(parse: ParseFn): ParseFn {
  return (source, options) => {
    const text = typeof source === 'string' ? source : (source as { body: string }).body;
    if (nestsDeeperThan(text, MAX_DOCUMENT_NESTING)) throw tooDeep();
    try {
      return parse(source, options);
    } catch (error) {
      if (error instanceof RangeError) throw tooDeep();
      throw error;
    }
  };
}

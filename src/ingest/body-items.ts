// An ingest body read as it arrives and cut into its items — NDJSON lines, or the elements of one
// JSON array — each decoded, parsed and checked against the text rule on its own, and handed on in
// slices. Nothing holds the whole body, its text or all of its values at once: a slice is at most
// one piece of input (PIECE_BYTES) plus the item it completes, and the caller yields between
// slices, so a body of 20 million `{}` lines is as much work per slice as one of large scans.
import { findTextProblem, jsonMayHoldBadText, TEXT_RULE, utf8Text } from '../http/text-input.js';
import type { LineProblem, ParsedLine } from './lines.js';

/** Input cut at once; a chunk (the CLI reads a whole file as one) is fed in pieces of this size. */
const PIECE_BYTES = 4 * 1024;

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (byte: number) => byte === 0x20 || byte === NEWLINE || byte === 0x0d || byte === 0x09;

/** An item's bytes, or its text when it was decoded with others. */
type Emit = (item: Uint8Array | string, line: number) => void;
type Fail = (line: number, message: string) => void;

/** The bytes of an item that began in earlier chunks and ends in this one. */
class Pending {
  private parts: Uint8Array[] = [];
  private bytes = 0;
  keep(part: Uint8Array) {
    if (!part.byteLength) return;
    this.parts.push(part);
    this.bytes += part.byteLength;
  }
  take(tail: Uint8Array): Uint8Array {
    if (!this.parts.length) return tail;
    const whole = Buffer.concat([...this.parts, tail], this.bytes + tail.byteLength);
    this.parts = [];
    this.bytes = 0;
    return whole;
  }
  get empty() {
    return this.parts.length === 0;
  }
}

/** NDJSON: one item per line, numbered from 1 counting every line. */
class LineCutter {
  private pending = new Pending();
  private line: number;
  constructor(firstLine: number) {
    this.line = firstLine;
  }
  push(chunk: Uint8Array, emit: Emit) {
    const first = chunk.indexOf(NEWLINE);
    if (first === -1) return this.pending.keep(chunk);
    emit(this.pending.take(chunk.subarray(0, first)), this.line++);
    const last = chunk.lastIndexOf(NEWLINE);
    // The whole lines between are decoded at once: a newline byte never occurs inside a UTF-8
    // sequence, so the text splits where the bytes do (a view and a decoding per short line were
    // most of a body of them). Bytes that are not UTF-8 are decoded line by line to tell which.
    const whole = chunk.subarray(first + 1, last);
    const text = last > first ? decodedOrNull(whole) : '';
    if (text === null) {
      let start = 0;
      for (let end = whole.indexOf(NEWLINE); end !== -1; end = whole.indexOf(NEWLINE, start)) {
        emit(whole.subarray(start, end), this.line++);
        start = end + 1;
      }
      emit(whole.subarray(start), this.line++);
    } else if (last > first) for (const line of text.split('\n')) emit(line, this.line++);
    this.pending.keep(chunk.subarray(last + 1));
  }
  end(emit: Emit) {
    if (!this.pending.empty) emit(this.pending.take(new Uint8Array(0)), this.line);
  }
}

/**
 * One JSON array: each element is an item, numbered from 1. Only the array's own punctuation is
 * read here (strings and nesting are followed so commas inside an element are not taken for
 * separators; '"' and '\' never occur inside a UTF-8 sequence); each element is parsed on its own.
 */
class ArrayCutter {
  private pending = new Pending();
  private state: 'element?' | 'element' | 'closed' | 'failed' = 'element?';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private index = 1;
  private afterComma = false;

  push(chunk: Uint8Array, emit: Emit, fail: Fail) {
    let start = 0;
    for (let at = 0; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (this.state === 'element') {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (byte === BACKSLASH) this.escaped = true;
          else if (byte === QUOTE) this.inString = false;
        } else if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) this.depth++;
        else if ((byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) && this.depth > 0) this.depth--;
        else if (this.depth === 0 && (byte === COMMA || byte === CLOSE_ARRAY)) {
          emit(this.pending.take(chunk.subarray(start, at)), this.index++);
          this.state = byte === COMMA ? 'element?' : 'closed';
          this.afterComma = byte === COMMA;
        }
      } else if (isSpace(byte) || this.state === 'failed') continue;
      else if (this.state === 'element?') {
        if (byte === CLOSE_ARRAY && !this.afterComma) this.state = 'closed';
        else if (byte === COMMA || byte === CLOSE_ARRAY)
          this.failAt(fail, `invalid JSON: a value is missing before '${String.fromCharCode(byte)}'`);
        else {
          this.state = 'element';
          start = at;
          this.inString = byte === QUOTE;
          this.escaped = false;
          this.depth = byte === OPEN_ARRAY || byte === OPEN_OBJECT ? 1 : 0;
        }
      } else this.failAt(fail, 'invalid JSON: nothing may follow the array');
    }
    if (this.state === 'element') this.pending.keep(chunk.subarray(start));
  }

  private failAt(fail: Fail, message: string) {
    fail(this.index, message);
    this.state = 'failed';
  }

  end(_emit: Emit, fail: Fail) {
    if (this.state === 'element' || this.state === 'element?')
      fail(this.index, 'invalid JSON: the array is not closed');
  }
}

const decodedOrNull = (bytes: Uint8Array): string | null => {
  try {
    return utf8Text(bytes);
  } catch {
    return null;
  }
};

/** One item as a value, or its problem; null for a blank NDJSON line. */
function parsedItem(item: Uint8Array | string, line: number): ParsedLine | LineProblem | null {
  const text = typeof item === 'string' ? item : decodedOrNull(item);
  if (text === null) return { line, message: `the line is not valid UTF-8; ${TEXT_RULE}` };
  const source = text.trim();
  if (!source) return null;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    return { line, message: `invalid JSON: ${(error as Error).message}` };
  }
  // The walk over the value runs only where its text may hold a string the rule refuses.
  const refused = jsonMayHoldBadText(source) ? findTextProblem(value, '') : null;
  return refused ? { line, message: `${refused.path || 'line'}: ${refused.problem}; ${TEXT_RULE}` } : { line, value };
}

export type BodyItem = ParsedLine | LineProblem;

/**
 * The items of a body, in order, a slice at a time (every slice holds at least one item).
 * Leading whitespace decides nothing: the first other byte '[' makes the body one JSON array.
 */
export async function* bodySlices(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncGenerator<BodyItem[]> {
  let slice: BodyItem[] = [];
  const emit: Emit = (item, line) => {
    const parsed = parsedItem(item, line);
    if (parsed) slice.push(parsed);
  };
  const fail: Fail = (line, message) => slice.push({ line, message });
  let cutter: LineCutter | ArrayCutter | null = null;
  let leadingLines = 0;
  for await (const chunk of chunks) {
    for (let offset = 0; offset < chunk.byteLength; offset += PIECE_BYTES) {
      let piece = chunk.subarray(offset, offset + PIECE_BYTES);
      if (!cutter) {
        const first = piece.findIndex((byte) => !isSpace(byte));
        for (const byte of first === -1 ? piece : piece.subarray(0, first)) if (byte === NEWLINE) leadingLines++;
        if (first === -1) continue;
        piece = piece.subarray(first);
        cutter = piece[0] === OPEN_ARRAY ? new ArrayCutter() : new LineCutter(leadingLines + 1);
        if (cutter instanceof ArrayCutter) piece = piece.subarray(1);
      }
      cutter.push(piece, emit, fail);
      if (slice.length) {
        yield slice;
        slice = [];
      }
    }
  }
  cutter?.end(emit, fail);
  if (slice.length) yield slice;
}

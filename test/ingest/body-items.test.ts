// An ingest body is cut into items as it arrives, whatever the chunks' boundaries, in slices a
// piece of input at a time; its problems are kept in bounded space (the first ones, clipped) and
// counted (past the reported ones, without a sentence); a schema's arrays stop at their third bad item.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bodySlices, type BodyItem } from '../../src/ingest/body-items.js';
import { checkedArray, ProblemList, REPORTED_PROBLEMS } from '../../src/ingest/lines.js';
import { validateMetricLines } from '../../src/ingest/metric-facts.js';

const bytes = (text: string) => Buffer.from(text);
async function itemsOf(chunks: Uint8Array[]) {
  const slices: BodyItem[][] = [];
  for await (const slice of bodySlices(chunks)) slices.push(slice);
  return { slices, items: slices.flat() };
}
/** The text cut into chunks of `size` bytes. */
const chunked = (text: string, size: number) => {
  const whole = bytes(text);
  return Array.from({ length: Math.ceil(whole.length / size) }, (_, index) =>
    whole.subarray(index * size, (index + 1) * size),
  );
};

describe('cutting a body into items', () => {
  const ndjson = '\n{"a":1}\n\n  {"b":"x\\ny"}  \r\n{"c":[1,{"d":"]"}]}\nnot json\n{"e":"é"}';
  const expected = [
    { line: 2, value: { a: 1 } },
    { line: 4, value: { b: 'x\ny' } },
    { line: 5, value: { c: [1, { d: ']' }] } },
    { line: 6, message: expect.stringMatching(/^invalid JSON: /) },
    { line: 7, value: { e: 'é' } },
  ];

  it.each([1, 2, 3, 7, 1000])('NDJSON, in chunks of %i bytes, numbered by line (blank lines count)', async (size) => {
    expect((await itemsOf(chunked(ndjson, size))).items).toEqual(expected);
  });

  const array = ' \n[{"a":1} , {"b":"x,y]\\"}"},\n[1,2], "s", 3 ,{"c":{"d":[]}}] \n';
  it.each([1, 2, 5, 1000])('a JSON array, in chunks of %i bytes, numbered by element', async (size) => {
    expect((await itemsOf(chunked(array, size))).items).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: { b: 'x,y]"}' } },
      { line: 3, value: [1, 2] },
      { line: 4, value: 's' },
      { line: 5, value: 3 },
      { line: 6, value: { c: { d: [] } } },
    ]);
  });

  it.each([
    [
      '[1,,2]',
      [
        { line: 1, value: 1 },
        { line: 2, message: "invalid JSON: a value is missing before ','" },
      ],
    ],
    [
      '[1,]',
      [
        { line: 1, value: 1 },
        { line: 2, message: "invalid JSON: a value is missing before ']'" },
      ],
    ],
    ['[1', [{ line: 1, message: 'invalid JSON: the array is not closed' }]],
    [
      '[{"a":1}] x',
      [
        { line: 1, value: { a: 1 } },
        { line: 2, message: 'invalid JSON: nothing may follow the array' },
      ],
    ],
    ['[]', []],
    ['  ', []],
  ])('a malformed array %j is a problem where it breaks', async (text, items) => {
    expect((await itemsOf([bytes(text)])).items).toEqual(items);
  });

  it('a line whose bytes are not UTF-8 is a problem of its own; a NUL names the field', async () => {
    const body = Buffer.concat([bytes('{"a":"'), Buffer.from([0xc3, 0x28]), bytes('"}\n{"b":["\\u0000"]}\n{"c":1}')]);
    expect((await itemsOf([body])).items).toEqual([
      { line: 1, message: expect.stringMatching(/not valid UTF-8/) },
      { line: 2, message: expect.stringMatching(/^b\[0\]: contains a NUL/) },
      { line: 3, value: { c: 1 } },
    ]);
  });

  it('a body given whole is handed on in slices of a piece of input each, not at once', async () => {
    const { slices, items } = await itemsOf([bytes('{}\n'.repeat(100_000))]);
    expect(items).toHaveLength(100_000);
    expect(slices.length).toBeGreaterThanOrEqual(73);
    expect(Math.max(...slices.map((slice) => slice.length))).toBeLessThanOrEqual(Math.ceil(4096 / 3) + 1);
  });
});

describe('the problems kept', () => {
  it('are the first ones, clipped, within the byte budget; the rest are only counted', () => {
    const problems = new ProblemList();
    for (let line = 1; line <= 200_000; line++) problems.add({ line, message: `runs.0: ${'x'.repeat(10_000)}` });
    expect(problems.count).toBe(200_000);
    expect(problems.reported.length).toBeGreaterThan(50);
    expect(problems.reported.map((problem) => problem.line)).toEqual(problems.reported.map((_, index) => index + 1));
    expect(Math.max(...problems.reported.map((problem) => problem.message.length))).toBe(
      REPORTED_PROBLEMS.messageCharacters,
    );
    expect(Buffer.byteLength(JSON.stringify(problems.reported))).toBeLessThanOrEqual(REPORTED_PROBLEMS.bytes);
    expect(problems.omitted).toBe(200_000 - problems.reported.length);
  });

  it('are at most REPORTED_PROBLEMS.count however short', () => {
    const problems = new ProblemList();
    for (let line = 1; line <= 5_000; line++) problems.add({ line, message: 'x' });
    expect(problems.reported).toHaveLength(REPORTED_PROBLEMS.count);
    expect(problems.omitted).toBe(4_000);
  });
});

describe('an array checked item by item', () => {
  const schema = z.object({ runs: checkedArray(z.object({ a: z.number() }), 1_000) });
  it('stops at the third bad item', () => {
    const issues = schema.safeParse({ runs: Array(1_000).fill(7) }).error!.issues;
    expect(issues.map((issue) => issue.path)).toEqual([
      ['runs', 0],
      ['runs', 1],
      ['runs', 2],
    ]);
  });
  it('refuses a long array by its length alone', () => {
    expect(schema.safeParse({ runs: Array(1_000_000).fill(7) }).error!.issues).toHaveLength(1);
  });
  it('gives the items as their schema parses them', () => {
    expect(schema.parse({ runs: [{ a: 1 }, { a: 2 }] })).toEqual({ runs: [{ a: 1 }, { a: 2 }] });
  });
});

describe('lines past the reported problems', () => {
  it('are counted without a sentence once the problems are full, and still refused', () => {
    const lines = [
      { line: 1, value: {} },
      { line: 2, value: { metrics: 1 } },
    ];
    const described = validateMetricLines(lines, new Set(), { seen: new Map(), describing: true }).problems;
    expect(described.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/^client: /),
      expect.stringMatching(/^client: /),
    ]);
    const counted = validateMetricLines(lines, new Set(), { seen: new Map(), describing: false }).problems;
    expect(counted).toEqual([
      { line: 1, message: '' },
      { line: 2, message: '' },
    ]);
  });
});

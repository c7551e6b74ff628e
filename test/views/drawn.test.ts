// A chart's partial buckets (a cut week or month, or one with days without data) are drawn apart
// in every chart type: a bar faded, a line faded and dashed into and out of the bucket.
import { describe, expect, it } from 'vitest';
import { drawnAs } from '../../web/views/common/drawn.js';

const partial = ['2 days', null, null, '3 days'];
const values = [10, 20, 30, 40];

describe('drawnAs', () => {
  it('draws a line through its whole buckets, and apart (cut) into and out of each partial one', () => {
    const drawn = drawnAs([{ label: 'sessions', values }], partial, false);
    expect(drawn.map(({ look, values: shown }) => [look, shown])).toEqual([
      ['line', [null, 20, 30, null]],
      ['cut', [10, 20, 30, 40]],
    ]);
  });

  it('leaves a comparison and a chart without partial buckets as they are', () => {
    const compared = { label: 'comparison period', values, dashed: true };
    expect(drawnAs([compared], partial, false).map((line) => line.look)).toEqual(['line']);
    const whole = drawnAs([{ label: 'sessions', values }], [null, null, null, null], false);
    expect(whole.map((line) => line.look)).toEqual(['line']);
  });

  it('draws the bars of partial buckets apart (faded), keeping each series its colour', () => {
    const compared = { label: 'comparison period', values, dashed: true };
    const drawn = drawnAs([{ label: 'cost', values }, compared], partial, true);
    expect(drawn.map(({ look, shade, values: shown }) => [look, shade, shown])).toEqual([
      ['bar', 0, [null, 20, 30, null]],
      ['faded bar', 0, [10, null, null, 40]],
      ['line', 1, values],
    ]);
  });
});

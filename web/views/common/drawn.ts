// How a chart's series are drawn around its partial buckets (a week or month the range cuts, or
// one with days without data). Pure: charts.ts draws what it says.
import type { Series } from './charts.js';

type Look = 'line' | 'bar' | 'faded bar' | 'cut';
/**
 * The series as drawn, partial buckets apart: a bar chart's first series as its whole bars and,
 * faded, its partial ones; each solid line through its whole buckets, and again, faded and dashed,
 * into and out of each partial one (only those points drawn, hollow), so that a cut week does not
 * read as a drop. A comparison (dashed) is drawn as it is. `shade` is the series' place in the palette.
 */
export function drawnAs(series: Series[], partial: (string | null)[], bars: boolean) {
  const only = (values: Series['values'], keep: (row: number) => boolean) =>
    values.map((value, row) => (keep(row) ? value : null));
  const near = (row: number) => Boolean(partial[row] || partial[row - 1] || partial[row + 1]);
  return series.flatMap((line, index) => {
    const as = (look: Look, values = line.values) => ({ ...line, values, shade: index, look });
    if (bars && index === 0) {
      return [
        as(
          'bar',
          only(line.values, (row) => !partial[row]),
        ),
        as(
          'faded bar',
          only(line.values, (row) => Boolean(partial[row])),
        ),
      ];
    }
    if (line.dashed || !partial.some(Boolean)) return [as('line')];
    return [
      as(
        'line',
        only(line.values, (row) => !partial[row]),
      ),
      as('cut', only(line.values, near)),
    ];
  });
}

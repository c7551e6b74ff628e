// bench:views candidate: Observable Plot (SVG), one line chart per model.
import * as Plot from '@observablehq/plot';
import type { BenchData } from './data.js';

export function render(root: HTMLElement, data: BenchData, colors: readonly string[]): void {
  for (const model of data.models) {
    const rows = model.series.flatMap((series) =>
      series.values.map((value, index) => ({ day: new Date(data.days[index]!), value, series: series.name })),
    );
    root.appendChild(
      Plot.plot({
        width: 600,
        height: 220,
        title: model.name,
        color: { domain: model.series.map((series) => series.name), range: [...colors], legend: true },
        marks: [Plot.lineY(rows, { x: 'day', y: 'value', stroke: 'series', strokeWidth: 1.5 })],
      }),
    );
  }
}

// bench:views candidate: uPlot, one line chart per model (brand + competitors).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { BenchData } from './data.js';

export function render(root: HTMLElement, data: BenchData, colors: readonly string[]): void {
  const days = data.days.map((day) => Date.parse(day) / 1000);
  for (const model of data.models) {
    const box = root.appendChild(document.createElement('div'));
    new uPlot(
      {
        width: 600,
        height: 220,
        title: model.name,
        series: [
          {},
          ...model.series.map((series, index) => ({ label: series.name, stroke: colors[index], width: 1.5 })),
        ],
        axes: [{}, { values: (_chart, ticks) => ticks.map((tick) => `${Math.round(tick * 100)} %`) }],
      },
      [days, ...model.series.map((series) => series.values)],
      box,
    );
  }
}

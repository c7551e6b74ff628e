// bench:views candidate: Chart.js (tree-shaken registration), one line chart per model.
import {
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Title,
  Tooltip,
} from 'chart.js';
import type { BenchData } from './data.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Title, Tooltip);

export function render(root: HTMLElement, data: BenchData, colors: readonly string[]): void {
  for (const model of data.models) {
    const box = root.appendChild(document.createElement('div'));
    box.style.cssText = 'width:600px;height:220px';
    const canvas = box.appendChild(document.createElement('canvas'));
    new Chart(canvas, {
      type: 'line',
      data: {
        labels: data.days,
        datasets: model.series.map((series, index) => ({
          label: series.name,
          data: series.values,
          borderColor: colors[index],
          borderWidth: 1.5,
          pointRadius: 0,
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { title: { display: true, text: model.name } },
      },
    });
  }
}

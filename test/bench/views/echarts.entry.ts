// bench:views candidate: ECharts through its tree-shakable core, one line chart per model.
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import type { BenchData } from './data.js';

echarts.use([LineChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

export function render(root: HTMLElement, data: BenchData, colors: readonly string[]): void {
  for (const model of data.models) {
    const box = root.appendChild(document.createElement('div'));
    box.style.cssText = 'width:600px;height:220px';
    echarts.init(box).setOption({
      animation: false,
      title: { text: model.name },
      legend: {},
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: data.days },
      yAxis: { type: 'value' },
      series: model.series.map((series, index) => ({
        type: 'line',
        name: series.name,
        data: series.values,
        showSymbol: false,
        lineStyle: { width: 1.5, color: colors[index] },
        itemStyle: { color: colors[index] },
      })),
    });
  }
}

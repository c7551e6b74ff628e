// bench:views: the chart library the views use, chosen by measurement. Each candidate draws the
// AI-visibility view's heaviest chart set — 365 days × 4 models × (brand + 3 competitors), one
// line chart per model — from a bundle built as the views are (esbuild, minified, one file).
// Printed per library: the bundle's size minified and gzipped, and the time from the data being
// there to the first frame painted after the charts were drawn, in a fresh headless Chromium
// page each time (cold, as a view is), median of BENCH_RUNS (9) alternated runs.
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { build } from 'esbuild';
import { launchChromium } from '../support/browser.js';
import os from 'node:os';

const HERE = path.join(import.meta.dirname, 'views');
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const CANDIDATES = ['uplot', 'chartjs', 'echarts', 'plot'] as const;
// Okabe–Ito: the palette the views use (colour-blind safe).
const COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7'];

interface Bundle { js: string; css: string }

async function bundle(candidate: string): Promise<Bundle> {
  const entry = `import { benchData } from './data.js'; import { render } from './${candidate}.entry.js';
    window.benchRender = () => render(document.getElementById('root'), benchData(), ${JSON.stringify(COLORS)});`;
  const result = await build({ stdin: { contents: entry, resolveDir: HERE, loader: 'ts' }, bundle: true, minify: true, format: 'iife', target: 'es2022', write: false, outdir: 'out', logLevel: 'silent' });
  const text = (ext: string) => result.outputFiles.find((file) => file.path.endsWith(ext))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}

/** Milliseconds from calling render to the frame after the one that painted the charts. */
async function renderTime(page: import('playwright-core').Page, { js, css }: Bundle): Promise<number> {
  await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body><div id="root"></div><script>${js}</script></body></html>`);
  return page.evaluate(() => new Promise<number>((resolve) => {
    const started = performance.now();
    (window as unknown as { benchRender(): void }).benchRender();
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - started)));
  }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const bundles = Object.fromEntries(await Promise.all(CANDIDATES.map(async (candidate) => [candidate, await bundle(candidate)] as const)));
const browser = await launchChromium();
const times: Record<string, number[]> = Object.fromEntries(CANDIDATES.map((candidate) => [candidate, []]));
try {
  for (let run = 0; run < RUNS; run += 1) {
    for (const candidate of CANDIDATES) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      times[candidate]!.push(await renderTime(page, bundles[candidate]!));
      await page.close();
    }
  }
} finally {
  await browser.close();
}
console.log(`\nChart libraries (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${RUNS} runs)`);
console.table(CANDIDATES.map((candidate) => {
  const { js, css } = bundles[candidate]!;
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  return { library: candidate, 'min KB': kb(js.length + css.length), 'gzip KB': kb(gzipSync(js + css).length), 'first frame p50 ms': median(times[candidate]!).toFixed(1), 'min–max ms': `${Math.min(...times[candidate]!).toFixed(0)}–${Math.max(...times[candidate]!).toFixed(0)}` };
}));

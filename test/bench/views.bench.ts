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

interface Bundle {
  js: string;
  css: string;
}

async function bundle(candidate: string): Promise<Bundle> {
  const entry = `import { benchData } from './data.js'; import { render } from './${candidate}.entry.js';
    window.benchRender = () => render(document.getElementById('root'), benchData(), ${JSON.stringify(COLORS)});`;
  const result = await build({
    stdin: { contents: entry, resolveDir: HERE, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    outdir: 'out',
    logLevel: 'silent',
  });
  const text = (ext: string) => result.outputFiles.find((file) => file.path.endsWith(ext))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}

/** Milliseconds from calling render to the frame after the one that painted the charts. */
async function renderTime(page: import('playwright-core').Page, { js, css }: Bundle): Promise<number> {
  await page.setContent(
    `<!doctype html><html><head><style>${css}</style></head>` +
      `<body><div id="root"></div><script>${js}</script></body></html>`,
  );
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        (window as unknown as { benchRender(): void }).benchRender();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - started)));
      }),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const bundles = Object.fromEntries(
  await Promise.all(CANDIDATES.map(async (candidate) => [candidate, await bundle(candidate)] as const)),
);
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
console.log(
  `\nChart libraries (${new Date().toISOString().slice(0, 10)}, ` +
    `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${RUNS} runs)`,
);
console.table(
  CANDIDATES.map((candidate) => {
    const { js, css } = bundles[candidate]!;
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    return {
      library: candidate,
      'min KB': kb(js.length + css.length),
      'gzip KB': kb(gzipSync(js + css).length),
      'first frame p50 ms': median(times[candidate]!).toFixed(1),
      'min–max ms': `${Math.min(...times[candidate]!).toFixed(0)}–${Math.max(...times[candidate]!).toFixed(0)}`,
    };
  }),
);

// The views themselves: each one's bundle (the MCP App's self-contained document and the web
// page's two files carry the same bytes), and the AI-visibility view's first paint for 365 days
// × 4 models × 3 locales once its data are there, in the web page's shape (the MCP App draws the
// same data with the same code after its tool call).
const { VIEWS, viewBundle, selfContainedDocument } = await import('../../src/views/index.js');
const budget = await Promise.all(
  VIEWS.map(async (view) => {
    const { js, css } = await viewBundle(view);
    return {
      view,
      'min KB': ((js.length + css.length) / 1024).toFixed(1),
      'gzip KB': (gzipSync(await selfContainedDocument(view, view)).length / 1024).toFixed(1),
      'budget KB': 150,
    };
  }),
);
console.log('\nViews: the self-contained document gzipped (budget 150 KB each)');
console.table(budget);

function visibilityData() {
  const models = ['chatgpt', 'claude', 'gemini', 'perplexity'];
  const locales = ['en-US', 'de-DE', 'fr-FR'];
  const competitors = ['Contoso', 'Fabrikam', 'Globex'];
  const start = Date.UTC(2025, 10, 26);
  const days = Array.from({ length: 365 }, (_, index) =>
    new Date(start + index * 86_400_000).toISOString().slice(0, 10),
  );
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const rates = () => ({
    totalRuns: 40,
    visibility: random(),
    shareOfVoice: random() / 2,
    averagePosition: 1 + random() * 4,
    sentiment: random() * 2 - 1,
  });
  return {
    node: {
      id: 'prj_bench',
      name: 'Bench project',
      brand: 'Northwind',
      competitors,
      models,
      locales,
      trend: days.flatMap((period) =>
        models.flatMap((model) => locales.map((locale) => ({ period, model, locale, ...rates() }))),
      ),
      metrics: {
        data: {
          range: { from: days[0], to: days.at(-1) },
          totals: locales.map((locale) => ({
            locale,
            ...rates(),
            positiveCount: 10,
            neutralCount: 5,
            negativeCount: 2,
            byModel: models.map((model) => ({ model, ...rates() })),
            competitors: competitors.map((name) => ({ name, ...rates() })),
          })),
        },
      },
      sources: {
        data: {
          rows: locales.flatMap((locale) =>
            Array.from({ length: 10 }, (_, index) => ({
              locale,
              domain: `site${index}.example`,
              citations: 100 - index,
              answersCiting: 50 - index,
              citationShare: 0.1,
              answerShare: 0.2,
              owned: index === 0,
              competitor: index === 1 ? 'Contoso' : null,
            })),
          ),
        },
      },
    },
  };
}

const visibility = await viewBundle('visibility');
const body = JSON.stringify({ data: visibilityData() });
const paints: number[] = [];
const pageBrowser = await launchChromium();
try {
  for (let run = 0; run < RUNS; run += 1) {
    const page = await pageBrowser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.route('http://bench.test/**', (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/graphql') return route.fulfill({ contentType: 'application/json', body });
      if (url.pathname === '/view.js') return route.fulfill({ contentType: 'text/javascript', body: visibility.js });
      if (url.pathname === '/view.css') return route.fulfill({ contentType: 'text/css', body: visibility.css });
      return route.fulfill({
        contentType: 'text/html',
        body:
          '<!doctype html><html><head><link rel="stylesheet" href="/view.css"></head>' +
          `<body><div id="view" data-page='${JSON.stringify({ operation: 'x', args: { id: 'prj_bench' } })}'></div>` +
          '<script src="/view.js"></script></body></html>',
      });
    });
    // When the charts are on the page, the frame after next has painted them.
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        if (document.querySelectorAll('.plot canvas').length < 3) return;
        observer.disconnect();
        requestAnimationFrame(() =>
          requestAnimationFrame(() => ((window as unknown as { painted: number }).painted = performance.now())),
        );
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('http://bench.test/');
    await page.waitForFunction(() => (window as unknown as { painted?: number }).painted !== undefined, undefined, {
      timeout: 30_000,
    });
    paints.push(
      await page.evaluate(
        () =>
          (window as unknown as { painted: number }).painted -
          (
            performance
              .getEntriesByType('resource')
              .find((entry) => entry.name.endsWith('/graphql')) as PerformanceResourceTiming
          ).responseEnd,
      ),
    );
    await page.close();
  }
} finally {
  await pageBrowser.close();
}
console.log(
  `\nAI-visibility view, 365 days × 4 models × 3 locales (${body.length.toLocaleString('en-US')} bytes of data): ` +
    `data arrived → charts painted, p50 ${median(paints).toFixed(0)} ms ` +
    `(min ${Math.min(...paints).toFixed(0)}, max ${Math.max(...paints).toFixed(0)}; budget 500 ms)`,
);

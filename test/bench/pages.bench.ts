// bench:pages: how fast the heavy pages paint — GraphiQL (/graphql), the API reference
// (/api/v1/docs) and the home page (/) — in headless Chromium against the production build.
// Each page is loaded BENCH_RUNS (5) times per case, alternated, in a fresh browser context:
//   - "identity, cold": the browser accepts no compression and has nothing cached, which is
//     what every visit cost before the assets were compressed (the baseline, in the same run);
//   - "br, cold": a first visit, the files compressed;
//   - "br, cached": a second visit in the same context, the immutable files from the cache.
// Over loopback, and over an emulated link (BENCH_LINK_MBPS, 20 Mbit/s, and BENCH_LINK_RTT_MS, 40 ms),
// where the bytes count. Printed: first-contentful-paint (median and range), the time until the
// page is usable (GraphiQL's editor, Scalar's first operation), and the bytes the page took.
import os from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { benchDatabase, runBench, startService } from './harness.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LINK = { mbps: Number(process.env.BENCH_LINK_MBPS ?? 20), rttMs: Number(process.env.BENCH_LINK_RTT_MS ?? 40) };
const PAGES = [
  // `ready`: the page can be used — GraphiQL's editor is there, Scalar lists the operations.
  { name: 'GraphiQL', path: '/graphql', ready: () => !!document.querySelector('.graphiql-container .monaco-editor') },
  { name: 'API reference', path: '/api/v1/docs', ready: () => !!document.body.textContent?.includes('List clients') },
  { name: 'home', path: '/', ready: () => !!document.querySelector('h1') },
] as const;
const CASES = [
  { name: 'identity, cold', encoding: 'identity', cached: false },
  { name: 'br, cold', encoding: 'br, gzip', cached: false },
  { name: 'br, cached', encoding: 'br, gzip', cached: true },
] as const;
const LINKS = [
  { name: 'loopback', conditions: null },
  {
    name: `${LINK.mbps} Mbit/s, ${LINK.rttMs} ms`,
    conditions: {
      offline: false,
      latency: LINK.rttMs,
      downloadThroughput: (LINK.mbps * 1e6) / 8,
      uploadThroughput: (LINK.mbps * 1e6) / 8,
    },
  },
] as const;

interface Sample {
  fcpMs: number;
  readyMs: number;
  bytes: number;
}

/**
 * One load of a page in `context`: its first-contentful-paint, when it is usable, and the bytes it took over the wire.
 */
async function load(
  context: BrowserContext,
  url: string,
  ready: () => boolean,
  link: (typeof LINKS)[number],
): Promise<Sample> {
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (link.conditions) await cdp.send('Network.emulateNetworkConditions', link.conditions);
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => (bytes += event.encodedDataLength));
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(ready, undefined, { timeout: 120_000 });
  const readyMs = Date.now() - started;
  const fcpMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const entry = performance.getEntriesByName('first-contentful-paint')[0];
        if (entry) return resolve(entry.startTime);
        new PerformanceObserver((list) => resolve(list.getEntries()[0]!.startTime)).observe({
          type: 'paint',
          buffered: true,
        });
      }),
  );
  // Workers and late requests finish before the page goes, so their bytes are counted.
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.close();
  return { fcpMs, readyMs, bytes };
}

async function sample(
  browser: Browser,
  baseUrl: string,
  target: (typeof PAGES)[number],
  kind: (typeof CASES)[number],
  link: (typeof LINKS)[number],
): Promise<Sample> {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    extraHTTPHeaders: { 'Accept-Encoding': kind.encoding },
  });
  try {
    if (kind.cached) await load(context, baseUrl + target.path, target.ready, link);
    return await load(context, baseUrl + target.path, target.ready, link);
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

runBench(async () => {
  const database = await benchDatabase();
  const service = await startService({ DATABASE_URL: database.url });
  const browser = await launchChromium();
  try {
    // Each file is compressed once per process, on first use: that first request is not a visit's.
    for (const target of PAGES) await sample(browser, service.baseUrl, target, CASES[1], LINKS[0]);
    const samples = new Map<string, Sample[]>();
    for (let run = 0; run < RUNS; run += 1) {
      for (const link of LINKS) {
        for (const target of PAGES) {
          for (const kind of CASES) {
            const key = `${link.name}|${target.name}|${kind.name}`;
            samples.set(key, [...(samples.get(key) ?? []), await sample(browser, service.baseUrl, target, kind, link)]);
          }
        }
      }
    }
    console.log(
      `\nPages (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ` +
        `load ${os.loadavg()[0]!.toFixed(1)}, ${RUNS} runs)`,
    );
    console.table(
      [...samples].map(([key, list]) => {
        const [link, page, kind] = key.split('|');
        const fcp = list.map((s) => s.fcpMs);
        return {
          link,
          page,
          case: kind,
          'FCP p50 ms': Math.round(median(fcp)),
          'FCP min–max': `${Math.round(Math.min(...fcp))}–${Math.round(Math.max(...fcp))}`,
          'usable p50 ms': Math.round(median(list.map((s) => s.readyMs))),
          'KB over the wire': Math.round(median(list.map((s) => s.bytes)) / 1024),
        };
      }),
    );
  } finally {
    await browser.close();
    await service.stop();
    await database.stop();
  }
});

// A test MCP Apps host in headless Chromium: it renders a ui:// resource's HTML in a sandboxed
// iframe under the CSP the spec has hosts build from the resource's `_meta.ui.csp` (here: no
// outside domain), hands it a real tool result, and forwards the view's tool calls to the test.
// Every console error and CSP violation of the page and the view is collected.
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';

const ORIGIN = 'http://apps-host.test';
// The spec's construction for a resource that declares no domains (apps.mdx, "Content Security Policy Enforcement").
export const VIEW_CSP = [
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; connect-src 'self'",
  "img-src 'self' data:; font-src 'self'; media-src 'self' data:; frame-src 'none'; object-src 'none'",
  "base-uri 'self'",
].join('; ');

let hostScript: Promise<string> | null = null;
const bundleHost = () =>
  (hostScript ??= build({
    entryPoints: [path.join(import.meta.dirname, 'apps-host.page.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    target: 'es2022',
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text));

export interface HostedView {
  page: Page;
  view: Frame;
  /** Console errors, page errors and CSP violations, of the host and the view. */
  problems: string[];
  /** Every tool the view called through the host, with its arguments. */
  calls: { name: string; arguments: Record<string, unknown> }[];
  /** Every size the view asked its host for (ui/notifications/size-changed), in order. */
  sizeChanges(): Promise<{ width?: number; height?: number }[]>;
}

export interface ShowOptions {
  html: string;
  toolInput: Record<string, unknown>;
  toolResult: unknown;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  theme?: 'light' | 'dark';
  locale?: string;
  width?: number;
  /** What the host tells the view of the frame it shows it in (hostContext.containerDimensions). */
  containerDimensions?: { width?: number; maxWidth?: number; height?: number; maxHeight?: number };
}

export async function showInAppsHost(browser: Browser, options: ShowOptions): Promise<HostedView> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 900, height: 900 },
    colorScheme: options.theme ?? 'light',
  });
  const problems: string[] = [];
  const calls: HostedView['calls'] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
  const script = await bundleHost();
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/view')
      return route.fulfill({
        contentType: 'text/html',
        headers: { 'content-security-policy': VIEW_CSP },
        body: options.html,
      });
    if (url.pathname === '/host.js') return route.fulfill({ contentType: 'text/javascript', body: script });
    if (url.pathname === '/')
      return route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html><body style="margin:0"><script src="/host.js"></script></body></html>',
      });
    problems.push(`request: ${url.href}`);
    return route.abort();
  });
  await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
    calls.push({ name: params.name, arguments: params.arguments ?? {} });
    return options.callTool(params);
  });
  await page.goto(`${ORIGIN}/`);
  await page.evaluate(
    ([input, result, context]) =>
      (window as unknown as { showView(a: unknown, b: unknown, c: unknown): Promise<void> }).showView(
        input,
        result,
        context,
      ),
    [
      options.toolInput,
      options.toolResult,
      {
        theme: options.theme ?? 'light',
        locale: options.locale ?? 'en-US',
        platform: 'web',
        displayMode: 'inline',
        ...(options.containerDimensions ? { containerDimensions: options.containerDimensions } : {}),
      },
    ] as const,
  );
  let view = page.frames().find((frame) => frame.url().endsWith('/view'));
  for (let tries = 0; !view && tries < 100; tries++) {
    await page.waitForTimeout(50);
    view = page.frames().find((frame) => frame.url().endsWith('/view'));
  }
  if (!view) throw new Error('the view never loaded in the test host');
  // CSP violations are reported inside the view as events; they also reach the console, but not all of them.
  await view.evaluate(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
    ),
  );
  const sizeChanges = () =>
    page.evaluate(() => (window as unknown as { sizeChanges: { width?: number; height?: number }[] }).sizeChanges);
  return { page, view, problems, calls, sizeChanges };
}

/**
 * Waits until the host has sized the frame to the view (from its debounced size notifications),
 * then grows the page's viewport to the frame: Chromium's full-page capture leaves a grown iframe blank.
 */
export async function growToView(hosted: HostedView): Promise<void> {
  const frameHeight = () =>
    hosted.page.evaluate(() => document.querySelector('iframe')!.getBoundingClientRect().height);
  for (let tries = 0; tries < 200; tries++) {
    if ((await hosted.view.evaluate(() => document.documentElement.scrollHeight)) === (await frameHeight())) break;
    await hosted.page.waitForTimeout(50);
  }
  await hosted.page.setViewportSize({
    width: hosted.page.viewportSize()!.width,
    height: Math.ceil(await frameHeight()),
  });
}

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createAssetShelf } from '../http/static-assets.js';
import { LOADING_STYLE } from '../graphql/graphiql.js';

// The API reference page: Scalar's standalone bundle, served from node_modules under
// /api/v1/docs/ (a content-hashed, compressed asset: http/static-assets.ts) rather than a CDN, and configured to show
// only what works offline
// and belongs to this product: no hosted fonts, no "Ask AI" agent (it calls Scalar's
// servers), no developer tools (Share, Deploy, Configure; `showToolbar` is its deprecated name),
// no telemetry, and no client-library snippets (the box held an empty Shell/Curl tab; the API
// guide carries curl examples).
export const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  telemetry: false,
  hideDarkModeToggle: true,
  hiddenClients: true,
} as const;

/** What the reference page may load and run: the bundle and the OpenAPI document from here, nothing inline. */
export const API_REFERENCE_PAGE_POLICY = {
  scripts: ["'self'"],
  extra: ["connect-src 'self'", "font-src 'self' data:", "worker-src 'self' blob:"],
};

const attribute = (value: unknown) => JSON.stringify(value).replace(/&/g, '&amp;').replace(/'/g, '&#39;');

const DOCS_ASSETS_PATH = '/api/v1/docs/';

const shelf = createAssetShelf(DOCS_ASSETS_PATH, {
  'scalar.js': async () => ({
    type: 'text/javascript; charset=utf-8',
    body: await readFile(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js')),
  }),
});

/** Scalar's bundle by its hashed file name under /api/v1/docs/, or null. */
export const docsAsset = (request: Request, fileName: string) => shelf.serve(request, fileName);

const HEAD_META =
  '<meta charset="utf-8"><title>Signalboard API v1 reference</title>' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">';

// A line to paint while Scalar's 3.6 MB script loads and runs (GraphiQL's page does the same),
// hidden once Scalar's app is in the page.
export async function apiReferencePage(openApiUrl: string): Promise<string> {
  return `<!doctype html>
<html lang="en">
<head>${HEAD_META}
<style>${LOADING_STYLE} body:has(.scalar-app) .page-loading { display: none; }</style></head>
<body>
<p class="page-loading">Loading the API reference…</p>
<script id="api-reference" data-url="${openApiUrl}" data-configuration='${attribute(SCALAR_CONFIGURATION)}'></script>
<script src="${await shelf.href('scalar.js')}" defer></script>
</body>
</html>`;
}

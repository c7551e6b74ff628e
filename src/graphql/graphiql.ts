// GraphiQL that works offline. Yoga's default page loads GraphiQL from a public CDN, which
// these machines and many company networks cannot reach; @graphql-yoga/render-graphiql ships
// the same build inside the package. Its renderer inlines ~9 MB into every page, so the page
// here is small and the bundle, stylesheet and editor workers are served as immutable, compressed
// assets under /graphql/assets/, loaded from the package once, when first asked for.
import { createRequire } from 'node:module';
import path from 'node:path';
import { introspectionFromSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import type { GraphiQLOptions } from 'graphql-yoga';
import { Response } from '../http/responses.js';
import { createAssetShelf, keptResponse, type AssetShelf } from '../http/static-assets.js';
import { keptBody, type FinishedBody } from '../http/representation.js';

export const GRAPHIQL_ASSETS_PATH = '/graphql/assets/';

interface Bundle {
  js: string;
  css: string;
  favicon: string;
  editorWorkerService: string;
  jsonWorker: string;
  graphqlWorker: string;
}

// The bundle module is not in the package's exports map; it is loaded by its file path, next
// to the package's entry. The version is pinned by the lockfile and the GraphiQL browser test.
let bundle: Promise<Bundle> | undefined;
const loadBundle = () => {
  const require = createRequire(import.meta.url);
  bundle ??= Promise.resolve(
    require(path.join(path.dirname(require.resolve('@graphql-yoga/render-graphiql')), 'graphiql.js')) as Bundle,
  );
  return bundle;
};

const JS = 'text/javascript; charset=utf-8';
const faviconBytes = (b: Bundle) => new Uint8Array(Buffer.from(b.favicon.slice(b.favicon.indexOf(',') + 1), 'base64'));
const fromBundle = (type: string, body: (b: Bundle) => string | Uint8Array) => async () => ({
  type,
  body: body(await loadBundle()),
});

// Under content-hashed names (http/static-assets.ts): the page names the hashed files, and the
// boot script names the hashed workers.
const shelf: AssetShelf = createAssetShelf(GRAPHIQL_ASSETS_PATH, {
  // The page carries no inline script (its CSP allows only our own files): this starts GraphiQL
  // with the options the page holds as inert JSON.
  'boot.js': async () => {
    const [json, graphql, editor] = await Promise.all(
      ['json', 'graphql', 'editor'].map((name) => shelf.href(`${name}.worker.js`)),
    );
    const workers = { json, graphql, editor };
    return {
      type: JS,
      body: `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: (_moduleId, label) =>
    (${JSON.stringify(workers)})[label === 'json' || label === 'graphql' ? label : 'editor'],
};
addEventListener('DOMContentLoaded', () => {
  YogaGraphiQL.renderYogaGraphiQL(
    document.querySelector('#root'),
    JSON.parse(document.getElementById('graphiql-options').textContent),
  );
});
`,
    };
  },
  'graphiql.js': fromBundle(JS, (b) => b.js),
  'graphiql.css': fromBundle('text/css; charset=utf-8', (b) => b.css),
  'favicon.ico': fromBundle('image/x-icon', faviconBytes),
  'editor.worker.js': fromBundle(JS, (b) => b.editorWorkerService),
  'json.worker.js': fromBundle(JS, (b) => b.jsonWorker),
  'graphql.worker.js': fromBundle(JS, (b) => b.graphqlWorker),
});

/** A GraphiQL asset by its hashed file name under GRAPHIQL_ASSETS_PATH, or null. */
export const graphiqlAsset = (request: Request, fileName: string): Promise<Response | null> =>
  shelf.serve(request, fileName);

/** GraphiQL's icon at /favicon.ico, which browsers ask every origin for: a fixed name, so kept a day, not a year. */
export async function favicon(): Promise<Response> {
  const headers = { 'Content-Type': 'image/x-icon', 'Cache-Control': 'public, max-age=86400' };
  return new Response(faviconBytes(await loadBundle()), { headers });
}

/** What the GraphiQL page may load and run: our own files, workers and calls, nothing inline. */
export const GRAPHIQL_PAGE_POLICY = {
  scripts: ["'self'"],
  extra: ["connect-src 'self'", "worker-src 'self'", "font-src 'self' data:"],
};

// Inline JSON inside <script> must not be able to close the element.
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

// GraphiQL takes an introspection result as its `schema` and then does not introspect by itself.
const introspectionOf = (schema: GraphQLSchema): IntrospectionQuery =>
  introspectionFromSchema(schema, { schemaDescription: true, inputValueDeprecation: true });

/**
 * The page says what is coming before GraphiQL's 5 MB script has run (seconds on a busy machine):
 * its style sheet is linked after that line, which it does not hold back, and the scripts are
 * deferred, so the line paints as soon as the HTML is read; React replaces it.
 */
export const LOADING_STYLE = '.page-loading { font: 15px/1.5 system-ui, sans-serif; color: #5b6475; margin: 24px; }';

async function graphiqlPage(options: GraphiQLOptions, schema: GraphQLSchema): Promise<string> {
  const names = ['favicon.ico', 'graphiql.css', 'boot.js', 'graphiql.js'];
  const [favicon, css, boot, js] = await Promise.all(names.map((name) => shelf.href(name)));
  const pageOptions = scriptJson({ ...options, schema: introspectionOf(schema) });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${options.title ?? 'GraphiQL'}</title>
<link rel="icon" href="${favicon}">
<style>${LOADING_STYLE}</style>
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"><p class="page-loading">Loading GraphiQL…</p></div>
<link rel="stylesheet" href="${css}">
<script type="application/json" id="graphiql-options">${pageOptions}</script>
<script src="${boot}" defer></script>
<script src="${js}" defer></script>
</body>
</html>`;
}

// The page (its schema inlined, ~240 KB) is made once per schema and kept with its compressed
// codings, so each open costs a lookup: brotli makes it ~25 KB.
const pages = new WeakMap<GraphQLSchema, Promise<FinishedBody>>();

/** GraphiQL's page for a browser; `Vary: Accept`, as /graphql answers JSON to everyone else. */
export async function graphiqlPageResponse(request: Request, options: GraphiQLOptions, schema: GraphQLSchema) {
  let page = pages.get(schema);
  if (!page) {
    page = graphiqlPage(options, schema).then((text) => keptBody(Buffer.from(text) as Buffer<ArrayBuffer>));
    page.catch(() => pages.delete(schema));
    pages.set(schema, page);
  }
  const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', Vary: 'Accept' };
  return keptResponse(request, await page, headers);
}

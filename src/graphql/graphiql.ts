// GraphiQL that works offline. Yoga's default page loads GraphiQL from a public CDN, which
// these machines and many company networks cannot reach; @graphql-yoga/render-graphiql ships
// the same build inside the package. Its renderer inlines ~9 MB into every page, so the page
// here is small and the bundle, stylesheet and editor workers are served as cacheable assets
// under /graphql/assets/, loaded from the package once, when first asked for.
import { createRequire } from 'node:module';
import path from 'node:path';
import { introspectionFromSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import type { GraphiQLOptions } from 'graphql-yoga';
import { Response } from '../http/responses.js';

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
  bundle ??= Promise.resolve(require(path.join(path.dirname(require.resolve('@graphql-yoga/render-graphiql')), 'graphiql.js')) as Bundle);
  return bundle;
};

const JS = 'text/javascript; charset=utf-8';
// The page carries no inline script (its CSP allows only our own files): this starts GraphiQL
// with the options the page holds as inert JSON.
const BOOT = `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: (_moduleId, label) => '${GRAPHIQL_ASSETS_PATH}' + ({ json: 'json', graphql: 'graphql' }[label] ?? 'editor') + '.worker.js',
};
addEventListener('DOMContentLoaded', () => {
  YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), JSON.parse(document.getElementById('graphiql-options').textContent));
});
`;
const ASSETS: Record<string, { type: string; body: (b: Bundle) => string | Uint8Array<ArrayBuffer> }> = {
  'boot.js': { type: JS, body: () => BOOT },
  'graphiql.js': { type: JS, body: (b) => b.js },
  'graphiql.css': { type: 'text/css; charset=utf-8', body: (b) => b.css },
  'favicon.ico': { type: 'image/x-icon', body: (b) => new Uint8Array(Buffer.from(b.favicon.slice(b.favicon.indexOf(',') + 1), 'base64')) },
  'editor.worker.js': { type: JS, body: (b) => b.editorWorkerService },
  'json.worker.js': { type: JS, body: (b) => b.jsonWorker },
  'graphql.worker.js': { type: JS, body: (b) => b.graphqlWorker },
};

/** A GraphiQL asset by its name under GRAPHIQL_ASSETS_PATH, or null. */
export async function graphiqlAsset(name: string): Promise<Response | null> {
  const asset = ASSETS[name];
  if (!asset) return null;
  const body = asset.body(await loadBundle());
  return new Response(body, { headers: { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=86400' } });
}

/** What the GraphiQL page may load and run: our own files, workers and calls, nothing inline. */
export const GRAPHIQL_PAGE_POLICY = { scripts: ["'self'"], extra: ["connect-src 'self'", "worker-src 'self'", "font-src 'self' data:"] };

// Inline JSON inside <script> must not be able to close the element.
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

// Computed once per schema; GraphiQL takes an introspection result as its `schema` and then
// does not introspect by itself.
const introspections = new WeakMap<GraphQLSchema, IntrospectionQuery>();
const introspectionOf = (schema: GraphQLSchema) => {
  let introspection = introspections.get(schema);
  if (!introspection) introspections.set(schema, (introspection = introspectionFromSchema(schema, { schemaDescription: true, inputValueDeprecation: true })));
  return introspection;
};

export function graphiqlPage(options: GraphiQLOptions, schema: GraphQLSchema): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${options.title ?? 'GraphiQL'}</title>
<link rel="icon" href="${GRAPHIQL_ASSETS_PATH}favicon.ico">
<link rel="stylesheet" href="${GRAPHIQL_ASSETS_PATH}graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${scriptJson({ ...options, schema: introspectionOf(schema) })}</script>
<script src="${GRAPHIQL_ASSETS_PATH}boot.js"></script>
<script src="${GRAPHIQL_ASSETS_PATH}graphiql.js"></script>
</body>
</html>`;
}

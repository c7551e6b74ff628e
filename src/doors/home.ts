// `GET /`: where someone who only knows the address starts. A browser gets a small page in the
// sign-in page's style; any other client gets the same doors as JSON, so neither meets a 404.
import { ApiError } from '../errors/index.js';
import { html, page, pageSecurityHeaders, wantsHtml } from '../http/html.js';
import { keptBody, type FinishedBody } from '../http/representation.js';
import { jsonResponse } from '../http/responses.js';
import { keptResponse } from '../http/static-assets.js';
import { MCP_PATH } from '../mcp/index.js';
import { LOGIN_PATH } from '../sessions/index.js';
import { SETTINGS_PATH } from '../settings/index.js';

export interface Door {
  /** What the door is, stable for clients that look one up. */
  rel: string;
  title: string;
  /** A path on this origin. */
  href: string;
  /** What a GET there answers. */
  type: string;
  description: string;
}

/** The service's doors; `apiBasePath` is REST v1's prefix. */
export function doorsOf(apiBasePath: string): Door[] {
  const door = (rel: string, title: string, href: string, type: string, description: string): Door => ({
    rel,
    title,
    href,
    type,
    description,
  });
  return [
    door(
      'sign-in',
      'Sign in',
      LOGIN_PATH,
      'text/html',
      'Settings, API keys, webhooks and the views: reports, AI visibility, answers.',
    ),
    door(
      'api-reference',
      'API reference',
      `${apiBasePath}/docs`,
      'text/html',
      'REST API v1, every operation with its parameters and answers.',
    ),
    door(
      'openapi',
      'OpenAPI document',
      `${apiBasePath}/openapi.json`,
      'application/json',
      'REST API v1 as OpenAPI 3.1, for client generators.',
    ),
    door('graphiql', 'GraphiQL', '/graphql', 'text/html', 'The GraphQL API in the browser, with its schema and docs.'),
    door(
      'graphql',
      'GraphQL endpoint',
      '/graphql',
      'application/graphql-response+json',
      'POST a query with an API key.',
    ),
    door(
      'mcp',
      'MCP connector',
      MCP_PATH,
      'text/event-stream',
      'Connect an AI assistant (Streamable HTTP): you sign in and consent through OAuth 2.1; no API key.',
    ),
  ];
}

/** Where a signed-in person goes instead of signing in again. */
const SIGNED_IN = {
  title: 'Settings',
  href: SETTINGS_PATH,
  description: 'You are signed in: your workspace\u2019s settings, API keys, webhooks and views.',
};

function homePage(doors: Door[], signedIn: boolean) {
  const [signIn, ...developer] = doors.filter((door) => door.rel !== 'graphql' && door.rel !== 'mcp');
  const mcp = doors.find((door) => door.rel === 'mcp')!;
  const start = signedIn ? SIGNED_IN : signIn!;
  return page(
    'Home',
    html`<div class="login"><section>
<h1>Signalboard</h1>
<p>Marketing reports and AI-assistant visibility for your clients, in one workspace.</p>
<form method="get" action="${start.href}"><button type="submit">${start.title}</button></form>
<p class="muted">${start.description}</p>
</section><section>
<h2>For developers</h2>
<ul class="doors">${developer.map(
      (door) =>
        html`<li><a href="${door.href}">${door.title}</a> — <span class="muted">${door.description}</span></li>`,
    )}
<li>${mcp.title}: <code>${mcp.href}</code> — <span class="muted">${mcp.description}</span></li></ul>
<p class="muted">The guides (API, GraphQL, MCP, webhooks, views) ship with the project in <code>docs/</code>.</p>
</section></div>`,
  );
}

// The page is one of two for every request (signed in or not): each made once per API prefix and
// kept with its compressed codings.
const pages = new Map<string, FinishedBody>();
const pageOf = (apiBasePath: string, doors: Door[], signedIn: boolean) => {
  const key = `${apiBasePath} ${signedIn}`;
  let page = pages.get(key);
  if (!page) pages.set(key, (page = keptBody(Buffer.from(homePage(doors, signedIn).value) as Buffer<ArrayBuffer>)));
  return page;
};

/**
 * The answer to `GET /`: HTML for a browser, the list of doors as JSON for anyone else.
 * `signedIn` is whether the request carries a session cookie: told without reading the session,
 * so that `/` stays cheap (a stale cookie leads to Settings, which asks to sign in).
 */
export function homeResponse(request: Request, apiBasePath: string, signedIn = false) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw new ApiError('method_not_allowed', 'The home page is read with GET.', { headers: { Allow: 'GET, HEAD' } });
  }
  const doors = doorsOf(apiBasePath);
  const vary = { Vary: 'Accept', 'Cache-Control': 'no-cache' };
  if (!wantsHtml(request)) return jsonResponse({ name: 'Signalboard', doors }, 200, vary);
  // The page differs by the session cookie; no-cache with an ETag per page keeps a cache from serving the other.
  const headers = { 'Content-Type': 'text/html; charset=utf-8', ...pageSecurityHeaders(), ...vary };
  return keptResponse(request, pageOf(apiBasePath, doors, signedIn), headers);
}

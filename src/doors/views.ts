// The web app's view pages: /app/reports/{id}, /app/ai-visibility/{projectId} and
// /app/ai-visibility/{projectId}/answers, for a signed-in person in their session's workspace,
// and the views' script and style sheet under /app/assets/views/. A page is a shell: the view's
// script (the same one an MCP App runs) reads its data from /graphql with the view's trusted
// operation, with the session's cookie; what to show comes as a data attribute, since the CSP
// allows no inline script.
import type pg from 'pg';
import { ApiError } from '../errors/index.js';
import { html, htmlResponse, wantsHtml } from '../http/html.js';
import { workspaceScopes } from '../db/workspace-scope.js';
import { loadTrustedOperations } from '../graphql/trusted-operations.js';
import { signInRedirect, type WebSessions } from '../sessions/index.js';
import { SETTINGS_PATH } from '../settings/index.js';
import { viewBundle, viewLinks, viewsMenu, VIEW_ASSETS_PATH, VIEWS, type ViewName } from '../views/index.js';
import { VIEW_PAGE_PATHS } from '../views/index.js';
import { routeByPath, type PathRoutes } from './path-routes.js';
import { createAssetShelf } from '../http/static-assets.js';
import { reportRepository } from '../reports/index.js';
import { projectRepository } from '../ai-visibility/index.js';

export interface ViewPagesDeps {
  pool: pg.Pool;
  sessions: WebSessions;
}

// Each view's script and style sheet under content-hashed names: the page names this build's files.
const viewAssets = createAssetShelf(
  VIEW_ASSETS_PATH,
  Object.fromEntries(
    VIEWS.flatMap((view) => [
      [`${view}.js`, async () => ({ type: 'text/javascript; charset=utf-8', body: (await viewBundle(view)).js })],
      [`${view}.css`, async () => ({ type: 'text/css; charset=utf-8', body: (await viewBundle(view)).css })],
    ]),
  ),
);

interface ViewPage {
  operation: string;
  title: string;
}

// Each view's page (its path: VIEW_PAGE_PATHS), with the operation it reads; the path's `:id` is its argument.
const PAGES: Record<ViewName, ViewPage> = {
  report: { operation: 'ViewReport', title: 'Report' },
  visibility: { operation: 'ViewVisibility', title: 'AI visibility' },
  answers: { operation: 'ViewAnswers', title: 'Answers' },
};

// The views' scripts fetch /graphql and nothing else; styles include uPlot's inline ones (CSSOM).
const VIEW_PAGE_POLICY = { scripts: ["'self'"], extra: ["connect-src 'self'"] };

export function createViewPagesHandler(deps: ViewPagesDeps) {
  const scopeOf = workspaceScopes(deps.pool);
  let operations: Map<string, string> | null = null;
  /** The trusted operation's id (sha256), by operation name. */
  const operationId = (name: string) => {
    operations ??= new Map(
      [...loadTrustedOperations()].map(([hash, text]) => [/\bquery (\w+)/.exec(text)?.[1] ?? '', hash]),
    );
    return operations.get(name)!;
  };

  async function showPage(request: Request, view: ViewName, id: string): Promise<Response> {
    const page = PAGES[view];
    const session = await deps.sessions.read(request);
    if (!session) {
      if (wantsHtml(request)) return signInRedirect(request);
      throw new ApiError('unauthenticated', 'Sign in first (POST /app/login).');
    }
    const scope = scopeOf(session.workspaceId);
    // An id that is not the workspace's is a 404 page (find throws not_found), not a shell that says so.
    const shown = view === 'report' ? reportRepository(scope).find(id) : projectRepository(scope).find(id);
    const [links] = await Promise.all([viewLinks(scope), shown]);
    const config = JSON.stringify({ operation: operationId(page.operation), args: { id } });
    const [css, js] = await Promise.all([viewAssets.href(`${view}.css`), viewAssets.href(`${view}.js`)]);
    const brand = html`<a class="brand" href="${SETTINGS_PATH}">Signalboard</a>`;
    const settings = html`<a href="${SETTINGS_PATH}">Settings</a>`;
    return htmlResponse(
      html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Signalboard</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${css}"></head>
<body><header class="app-header">${brand}<span>${session.workspaceName}</span>${viewsMenu(links)}${settings}</header>
<div id="view" data-page="${config}"></div><script src="${js}" defer></script></body></html>`,
      200,
      {},
      VIEW_PAGE_POLICY,
    );
  }

  const asset = async (request: Request, file: string) => {
    const served = await viewAssets.serve(request, file);
    if (!served) throw new ApiError('not_found', 'No such file of the views.');
    return served;
  };
  const routes: PathRoutes<null> = {
    [`${VIEW_ASSETS_PATH}:file`]: { GET: (request, _, { file }) => asset(request, file!) },
  };
  for (const view of VIEWS)
    routes[VIEW_PAGE_PATHS[view]] = { GET: (request, _, { id }) => showPage(request, view, id!) };
  const route = routeByPath(routes);
  return (request: Request, path: string) => route(request, path, null);
}

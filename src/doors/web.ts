// /app: the web app's pages and their JSON twins. Each of its doors (sign-in, single sign-on,
// settings, the views) is asked in turn for the path; a path none of them knows is a 404 page.
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Database } from '../db/client.js';
import { ApiError } from '../errors/index.js';
import type { PublicOrigin } from '../http/public-origin.js';
import { Response } from '../http/responses.js';
import { createMailer, type Mailer } from '../mail/mailer.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { WebSessions } from '../sessions/index.js';
import { createSettingsHandler, SETTINGS_PATH } from '../settings/index.js';
import { createSso, identityProviderFetch } from '../sso/index.js';
import type { Exchange } from './request-cycle.js';
import { createSessionHandler } from './sessions.js';
import { createSsoHandler } from './sso.js';
import { createViewPagesHandler } from './views.js';

export interface WebDoorDeps {
  config: Config;
  database: Database;
  logger: Logger;
  box: SecretBox;
  mail?: Mailer;
  sessions: WebSessions;
  publicOrigin: PublicOrigin;
  notify(target: string): Promise<void>;
  /** Ends what else the person is signed in to (the OAuth authorization server's session). */
  onSignedOut(userId: string): Promise<void>;
}

export function createWebDoor(deps: WebDoorDeps) {
  const { config, logger, sessions, publicOrigin } = deps;
  const { prisma, pool } = deps.database;
  const sessionRoutes = createSessionHandler({
    pool,
    sessions,
    mail: deps.mail ?? createMailer(config, logger),
    publicOrigin,
    onSignedOut: deps.onSignedOut,
    onBackgroundError: (error) => logger.error({ err: error }, 'work after a sign-in or password-reset answer failed'),
  });
  const settingsRoutes = createSettingsHandler({
    config,
    prisma,
    pool,
    box: deps.box,
    sessions,
    notify: deps.notify,
    publicOrigin,
  });
  const viewPages = createViewPagesHandler({ pool: deps.database.readPool, sessions });
  const sso = createSso({
    prisma,
    pool,
    box: deps.box,
    cookiePolicy: sessions.cookiePolicy,
    allowHttpIssuers: config.OIDC_ALLOW_HTTP_ISSUERS,
    fetch: identityProviderFetch(config),
    logger,
  });
  const ssoRoutes = createSsoHandler({ sso, pool, sessions, cookiePolicy: sessions.cookiePolicy, publicOrigin });
  return async (request: Request, url: URL, { address }: Exchange): Promise<Response> => {
    if (url.pathname === '/app' || url.pathname === '/app/')
      return new Response(null, { status: 303, headers: { Location: SETTINGS_PATH } });
    const response =
      (await sessionRoutes(request, url.pathname, address)) ??
      (await ssoRoutes(request, url)) ??
      (await settingsRoutes(request, url.pathname)) ??
      (await viewPages(request, url.pathname));
    if (!response) throw new ApiError('not_found', 'No such page.');
    return response;
  };
}

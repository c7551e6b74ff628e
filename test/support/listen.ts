import { afterAll, beforeAll } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, type TestApp } from './app.js';
import { createNodeServer } from '../../src/doors/node-server.js';
import { listenOnLoopback } from './loopback.js';

/** Serves an in-memory app on a loopback port, for tools that need a real URL. */
export async function listen(app: App) {
  const served = await listenOnLoopback(createNodeServer(app));
  app.publicOrigin.listeningOn(served.baseUrl);
  return served;
}

/**
 * A test app served on loopback for the enclosing describe block (or file): built before its
 * tests, closed after them. Read `.t` and `.baseUrl` inside the tests.
 */
export function useListeningApp(env: Record<string, string> = {}) {
  const state = {} as { t: TestApp; baseUrl: string };
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  beforeAll(async () => {
    state.t = await createTestApp(env);
    server = await listen(state.t.app);
    state.baseUrl = server.baseUrl;
  });
  afterAll(async () => {
    await server?.close();
    await state.t?.close();
  });
  return state;
}

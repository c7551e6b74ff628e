import type { Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, type TestApp } from './app.js';
import { createNodeServer } from '../../src/http/node-server.js';

/** Serves an in-memory app on a loopback port, for tools that need a real URL. */
export async function listen(app: App): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createNodeServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
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

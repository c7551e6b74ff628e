import type { Server } from 'node:http';
import type { App } from '../../src/app.js';
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

// npm run conformance:mcp — the official MCP conformance suite against /mcp. The suite cannot
// send a bearer token, so a loopback proxy in front adds one (a real token from the whole OAuth
// flow, every toolset consented). Runs the server scenarios a revision requires (2026-07-28 by
// default; CONFORMANCE_REQUIREMENTS=2025-11-25 for the older one) and prints the suite's own
// summary. Needs the npm registry (npx fetches the suite) and Node ≥ 22 (npm scripts use the
// project's Node 24).
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { connectDatabase } from '../../src/db/client.js';
import { benchApiFixtures, benchDatabase, mcpAccessToken, runBench, startService } from '../bench/harness.js';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const REQUIREMENTS = process.env.CONFORMANCE_REQUIREMENTS ?? '2026-07-28';

/** Forwards every request to `target` with the bearer token added; streams answers back as they come. */
function tokenProxy(target: string, token: string) {
  return http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
    headers.set('authorization', `Bearer ${token}`);
    try {
      const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body) Readable.fromWeb(answer.body as never).pipe(res);
      else res.end();
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
}

runBench(async () => {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 2);
  const { workspace } = await benchApiFixtures(database);
  const service = await startService({ DATABASE_URL: embedded.url, RATE_LIMIT_SCALE: '100000000/100000000', WEBHOOK_WORKER: 'false' });
  const proxy = tokenProxy(service.baseUrl, await mcpAccessToken(database, service.baseUrl, workspace.id, '/mcp/x/all'));
  try {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp/x/all`;
    console.log(`${SUITE} server --requirements ${REQUIREMENTS} against ${url} (token added by the proxy)`);
    const run = spawnSync('npx', ['-y', SUITE, 'server', '--url', url, '--requirements', REQUIREMENTS], { stdio: 'inherit', env: process.env });
    console.log(`conformance exited ${run.status}`);
  } finally {
    proxy.close();
    await service.stop();
    await database.close();
    await embedded.stop();
  }
});

// npm run conformance:mcp — the official MCP conformance suite against /mcp. The suite cannot
// send a bearer token, so a loopback proxy in front adds one (a real token from the whole OAuth
// flow, every toolset consented). Runs the server scenarios a revision requires (2026-07-28 by
// default; CONFORMANCE_REQUIREMENTS=2025-11-25 for the older one) and prints the suite's own
// summary. Needs the npm registry (npx fetches the suite) and Node ≥ 22 (npm scripts use the
// project's Node 24).
import http from 'node:http';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { connectDatabase } from '../../src/db/client.js';
import { benchApiFixtures, benchDatabase, mcpAccessToken, runBench, startService } from '../bench/harness.js';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const REQUIREMENTS = process.env.CONFORMANCE_REQUIREMENTS ?? '2026-07-28';
/** Extra arguments for the suite, e.g. CONFORMANCE_ARGS="--scenario tools-list --verbose". */
const EXTRA = (process.env.CONFORMANCE_ARGS ?? '').split(' ').filter(Boolean);
/** CONFORMANCE_DEBUG=1 prints every proxied exchange. */
const DEBUG = Boolean(process.env.CONFORMANCE_DEBUG);

/**
 * Forwards every request to `target` with the bearer token added, streaming both ways. The
 * suite's own host and origin are the proxy's; to the service they become its own, while a
 * foreign Host or Origin (the DNS-rebinding scenario) reaches it unchanged.
 */
function tokenProxy(target: URL, token: string) {
  const proxy = http.createServer((req, res) => {
    const own = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (req.headers.host === own) headers.host = target.host;
    if (req.headers.origin === `http://${own}`) headers.origin = target.origin;
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        if (DEBUG) console.error(req.method, req.url, req.headers['mcp-protocol-version'], answer.statusCode);
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    // A stream the service ends (it stops while a listen stream is open) ends the client's too.
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return proxy;
}

runBench(async () => {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 2);
  const { workspace } = await benchApiFixtures(database);
  const service = await startService({
    DATABASE_URL: embedded.url,
    RATE_LIMIT_SCALE: '100000000/100000000',
    WEBHOOK_WORKER: 'false',
  });
  const proxy = tokenProxy(
    new URL(service.baseUrl),
    await mcpAccessToken(database, service.baseUrl, workspace.id, '/mcp/x/all'),
  );
  try {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp/x/all`;
    console.log(`${SUITE} server --requirements ${REQUIREMENTS} against ${url} (token added by the proxy)`);
    // Not spawnSync: the proxy answers from this process's event loop.
    const suite = spawn(
      'npx',
      [
        '-y',
        SUITE,
        'server',
        '--url',
        url,
        ...(EXTRA.includes('--scenario') ? [] : ['--requirements', REQUIREMENTS]),
        ...EXTRA,
      ],
      { stdio: 'inherit', env: process.env },
    );
    const code = await new Promise((resolve) => suite.on('exit', resolve));
    console.log(`conformance exited ${code}`);
  } finally {
    proxy.close();
    await service.stop();
    await database.close();
    await embedded.stop();
  }
});

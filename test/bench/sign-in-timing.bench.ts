// npm run bench:sign-in-timing — does a failed sign-in or a forgot-password answer take longer for
// a person than for an unknown address? In-process app on the bench database, a mail server that
// takes 50 ms per message, requests alternated (person, stranger, person, …) so drift hits both.
import pino from 'pino';
import { parseConfig } from '../../src/config/index.js';
import { connectDatabase } from '../../src/db/client.js';
import { createApp } from '../../src/app.js';
import { createApiKeyAuthenticator } from '../../src/auth/api-keys.js';
import { memoryRateLimitStore } from '../../src/auth/rate-limit-store.js';
import { createSecretBox, decodeKey } from '../../src/secrets/secret-box.js';
import { createWorkspace } from '../../src/workspaces/service.js';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { BENCH_APP_SECRET_KEY, root } from './harness.js';
import { freePort } from '../support/global-setup.js';
import { personWithPassword } from '../support/web.js';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 60);
const ORIGIN = 'http://bench.local';
// A database of its own on a free port: the shared bench database's port may be taken by another run.
const database = await startEmbeddedPostgres({
  dataDir: path.join(root, '.data/timing-postgres'),
  port: await freePort(),
  database: 'timing',
});
await migrate(database.url);
const config = parseConfig({
  DATABASE_URL: database.url,
  LOG_LEVEL: 'silent',
  NODE_ENV: 'test',
  APP_SECRET_KEY: BENCH_APP_SECRET_KEY,
  PUBLIC_BASE_URL: ORIGIN,
});
const db = connectDatabase(database.url, 5);
const app = createApp({
  config,
  database: db,
  authenticator: createApiKeyAuthenticator(db.pool),
  rateLimitStore: memoryRateLimitStore(),
  logger: pino({ level: 'silent' }),
  box: createSecretBox(decodeKey(BENCH_APP_SECRET_KEY)!),
  mail: () => new Promise((resolve) => setTimeout(resolve, 50)),
});
const run = `${Date.now()}`;
const workspace = await createWorkspace(db.prisma, { slug: `timing-${run}`, plan: 'agency' });
const people: string[] = [];
for (let i = 0; i < PEOPLE; i++)
  people.push(
    (await personWithPassword(db, { email: `timing-${run}-${i}@example.test`, workspaceId: workspace.id })).email,
  );

let address = 0;
async function timed(path: string, body: object): Promise<number> {
  const started = performance.now();
  const response = await app.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify(body),
    }),
    { remoteAddress: `198.18.${Math.floor(++address / 250)}.${address % 250}` },
  );
  await response.arrayBuffer();
  return performance.now() - started;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const rows: string[][] = [];
for (const [name, path, bodyOf] of [
  ['failed sign-in', '/app/login', (email: string) => ({ email, password: 'not the password at all' })],
  ['forgot password', '/app/password/forgot', (email: string) => ({ email })],
] as const) {
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    known.push(await timed(path, bodyOf(people[i]!)));
    unknown.push(await timed(path, bodyOf(`nobody-${run}-${i}@example.test`)));
  }
  for (const [who, values] of [
    ['person', known],
    ['unknown address', unknown],
  ] as const) {
    rows.push([name, who, quantile(values, 0.5).toFixed(2), quantile(values, 0.9).toFixed(2)]);
  }
}
console.log(
  '| request | address | p50 ms | p90 ms |\n|---|---|---|---|\n' +
    rows.map((row) => `| ${row.join(' | ')} |`).join('\n'),
);
await db.close();
await database.stop();

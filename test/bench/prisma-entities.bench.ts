// npx tsx test/bench/prisma-entities.bench.ts — what @pothos/plugin-prisma would cost the entity types
// (clients, reports, projects, members, webhooks) at the data layer: each read as the resolvers make it
// today (a repository's tenant statement on the WorkspaceScope) against the Prisma query the plugin
// issues for the same fields (findMany/findFirst with the selected fields, relation counts as _count),
// in-process, CONCURRENCY calls in flight, alternated rounds. The plugin adds its own resolver work on
// top: these figures are the least it could cost. Issue 51; the decision: docs/decisions/pothos-plugin-prisma.md.
import { connectDatabase } from '../../src/db/client.js';
import { workspaceScopes } from '../../src/db/workspace-scope.js';
import { clientRepository } from '../../src/clients/repository.js';
import { reportRepository } from '../../src/reports/repository.js';
import { projectRepository } from '../../src/ai-visibility/index.js';
import { workspaceRepository } from '../../src/workspaces/workspace-repository.js';
import { webhookRepository } from '../../src/webhooks/webhook-repository.js';
import { benchApiWorkspace, benchDatabase } from './harness.js';

const CONCURRENCY = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 1500);

/** Calls per second and the node process's CPU µs per call over one round. */
async function measure(call: () => Promise<unknown>): Promise<{ rate: number; cpu: number }> {
  let calls = 0;
  const until = performance.now() + ROUND_MS;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await call();
        calls++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return { rate: (calls * 1000) / (performance.now() - started), cpu: (cpu.user + cpu.system) / calls };
}

async function main() {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, CONCURRENCY);
  const workspace = await benchApiWorkspace(database);
  const workspaceId = workspace.id;
  const scope = () => workspaceScopes(database.readPool)(workspaceId);
  const { prisma } = database;
  const report = await prisma.report.findFirstOrThrow({ where: { workspaceId, archivedAt: null } });
  const live = { workspaceId, archivedAt: null };
  const newest = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
  const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
    [
      'clients list (50) + count',
      () => Promise.all([clientRepository(scope()).list(50), clientRepository(scope()).count()]),
      () =>
        Promise.all([
          prisma.client.findMany({
            where: live,
            orderBy: newest,
            take: 50,
            select: {
              id: true,
              name: true,
              createdAt: true,
              connections: { select: { provider: true }, orderBy: { provider: 'asc' } },
              _count: { select: { reports: { where: { archivedAt: null } } } },
            },
          }),
          prisma.client.count({ where: live }),
        ]),
    ],
    [
      'reports list (50) + count',
      () => Promise.all([reportRepository(scope()).list(null, 50), reportRepository(scope()).count(null)]),
      () =>
        Promise.all([
          prisma.report.findMany({
            where: live,
            orderBy: newest,
            take: 50,
            select: { id: true, workspaceId: true, clientId: true, name: true, createdAt: true, updatedAt: true },
          }),
          prisma.report.count({ where: live }),
        ]),
    ],
    [
      'report by id',
      () => reportRepository(scope()).find(report.id),
      () => prisma.report.findFirst({ where: { ...live, id: report.id } }),
    ],
    [
      'projects list (50) + count',
      () => Promise.all([projectRepository(scope()).list(null, 50), projectRepository(scope()).count(null)]),
      () =>
        Promise.all([
          prisma.aiProject.findMany({ where: live, orderBy: newest, take: 50 }),
          prisma.aiProject.count({ where: live }),
        ]),
    ],
    [
      'members',
      () => workspaceRepository(scope()).members(),
      () =>
        prisma.membership.findMany({
          where: { workspaceId },
          orderBy: [{ role: 'asc' }, { user: { email: 'asc' } }],
          select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
        }),
    ],
    [
      'webhook endpoints',
      () => webhookRepository(scope()).endpoints(),
      () => prisma.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: { createdAt: 'desc' } }),
    ],
  ];
  const rows: Record<string, string | number>[] = [];
  for (const [name, statement, orm] of cases) {
    await statement();
    await orm();
    const samples = { statement: [] as { rate: number; cpu: number }[], orm: [] as { rate: number; cpu: number }[] };
    for (let round = 0; round < ROUNDS; round++) {
      // Each round's order swapped, so the machine's drift hits both alike.
      const order = round % 2 ? (['orm', 'statement'] as const) : (['statement', 'orm'] as const);
      for (const side of order) samples[side].push(await measure(side === 'orm' ? orm : statement));
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const [s, o] = [mean(samples.statement.map((x) => x.rate)), mean(samples.orm.map((x) => x.rate))];
    const [sc, oc] = [mean(samples.statement.map((x) => x.cpu)), mean(samples.orm.map((x) => x.cpu))];
    rows.push({
      read: name,
      'statement calls/s': Math.round(s),
      'Prisma calls/s': Math.round(o),
      'Prisma/statement': Number((o / s).toFixed(2)),
      'node CPU µs/call statement': Math.round(sc),
      'node CPU µs/call Prisma': Math.round(oc),
    });
  }
  console.table(rows);
  console.log(
    `load average: ${(await import('node:os'))
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  await database.close();
  await embedded.stop();
}

void main();

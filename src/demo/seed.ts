// Demo data for any workspace: clients with connected providers, reports of every widget
// type, daily provider facts (day totals plus campaign/channel/device/country splits) and
// AI-visibility projects with scans. Values come from a seeded PRNG: the same options give
// the same numbers every time.
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { inTransaction } from '../db/transaction.js';
import { PROVIDERS, type ProviderId } from '../reports/index.js';
import { addDays } from '../dates/civil-date.js';
import type { ReportDefinition } from '../reports/index.js';
import { writeMetricFacts, type MetricFactInput } from '../ingest/index.js';
import { writeScans, type ScanInput } from '../ingest/index.js';
import { pick, seededRandom } from './random.js';
import { CURRENCY_OF_HOME, marketOf, timeZoneOf } from './markets.js';
import { clientFacts } from './facts.js';
import { WIDGETS_BY_PROVIDER } from './report-widgets.js';
import { seedProjects, type ProjectShapes, type SeedContext } from './seed-projects.js';

export interface SeedOptions {
  workspaceId: string;
  days?: number;
  clients?: number;
  seed?: number;
  /** Last day with data; default yesterday (UTC). */
  endDate?: string;
  onProgress?: (done: number, total: number) => void;
  /**
   * 'market': each client's reports in its market's time zone (a US client's days end in New York),
   * as an agency's are. By default the workspace's zone, which a test's expectations can rely on.
   */
  reportTimeZones?: 'workspace' | 'market';
}

const CLIENT_NAMES = [
  'Northwind Outdoor',
  'Acme Analytics',
  'Bluebird Coffee',
  'Helios Solar',
  'Kite & Key Travel',
  'Lumen Dental',
  'Orbit Fitness',
  'Pine Street Bakery',
  'Quarry Legal',
  'Riverstone Homes',
  'Sable Cosmetics',
  'Tundra Gear',
];
interface SeededClient {
  id: string;
  name: string;
  providers: ProviderId[];
}

/** The clients, each with its connected providers and their daily facts. */
async function seedClients(prisma: PrismaClient, ctx: SeedContext & { count: number; baseTime: number }) {
  const { random, count, baseTime } = ctx;
  const startDate = addDays(ctx.endDate, -(ctx.days - 1));
  const facts: MetricFactInput[] = [];
  const clients: SeededClient[] = [];
  for (let index = 0; index < count; index++) {
    const name =
      CLIENT_NAMES[index % CLIENT_NAMES.length]! +
      (index >= CLIENT_NAMES.length ? ` ${Math.floor(index / CLIENT_NAMES.length) + 1}` : '');
    const providers = PROVIDERS.filter((_, providerIndex) => providerIndex === 0 || random() < 0.7);
    const client = await prisma.client.create({
      data: {
        id: newId('client'),
        workspaceId: ctx.workspaceId,
        name,
        currency: CURRENCY_OF_HOME[marketOf(name).home],
        createdAt: new Date(baseTime - (count - index) * 86_400_000 * 7),
      },
    });
    clients.push({ id: client.id, name, providers });
    for (const provider of providers) {
      await prisma.providerConnection.create({
        data: {
          id: newId('connection'),
          workspaceId: ctx.workspaceId,
          clientId: client.id,
          provider,
          externalAccountId: `${provider}-${1000 + index}`,
        },
      });
    }
    const clientDays = clientFacts(
      { seed: ctx.seed, clientId: client.id, name, providers, startDate, days: ctx.days },
      random,
    );
    for (const fact of clientDays) facts.push(fact);
  }
  return { clients, facts };
}

/** Two reports per client: an overview of every widget its providers have, and the detail without KPIs. */
async function seedReports(
  prisma: PrismaClient,
  ctx: SeedContext & { baseTime: number; timeZone: (client: SeededClient) => string },
  clients: SeededClient[],
) {
  const reports: string[] = [];
  for (const [index, client] of clients.entries()) {
    const widgets = client.providers.flatMap((provider) => WIDGETS_BY_PROVIDER[provider](index));
    const definition: ReportDefinition = {
      widgets,
      dateConfig: {
        datePreset: pick(ctx.random, ['last_30_days', 'last_28_days', 'last_90_days', 'this_month'] as const),
        comparePreset: pick(ctx.random, ['previous_period', 'previous_year'] as const),
        timezone: ctx.timeZone(client),
      },
    };
    for (const [variant, name] of [
      ['overview', 'Monthly overview'],
      ['detail', 'Channel detail'],
    ] as const) {
      const report = await prisma.report.create({
        data: {
          id: newId('report'),
          workspaceId: ctx.workspaceId,
          clientId: client.id,
          name: `${client.name} — ${name}`,
          definition: (variant === 'overview'
            ? definition
            : { ...definition, widgets: widgets.filter((w) => w.type !== 'kpi') }) as object,
          createdAt: new Date(
            ctx.baseTime - (clients.length - index) * 86_400_000 * 3 - (variant === 'detail' ? 3_600_000 : 0),
          ),
        },
      });
      reports.push(report.id);
    }
  }
  return reports;
}

/**
 * Facts and scans touch no common row: two transactions side by side, so PostgreSQL writes both
 * while this process builds the next statement (the first start waits on this).
 */
async function writeAll(
  pool: pg.Pool,
  written: { facts: MetricFactInput[]; scans: ScanInput[]; projects: ProjectShapes },
  onProgress: SeedOptions['onProgress'],
) {
  const { facts, scans, projects } = written;
  const total = facts.length + scans.length;
  let factsDone = 0;
  let scansDone = 0;
  const progress = () => onProgress?.(factsDone + scansDone, total);
  const factsProgress = (done: number) => {
    factsDone = done;
    progress();
  };
  const scansProgress = (done: number) => {
    scansDone = done;
    progress();
  };
  await Promise.all([
    inTransaction(pool, (connection) => writeMetricFacts(connection, facts, factsProgress)),
    inTransaction(pool, (connection) =>
      writeScans(connection, scans, projects, scansProgress, { recordEvents: false }),
    ),
  ]);
}

export async function seedWorkspace(prisma: PrismaClient, pool: pg.Pool, options: SeedOptions) {
  const seed = options.seed ?? 42;
  const endDate = options.endDate ?? addDays(new Date().toISOString().slice(0, 10), -1);
  const workspace = await prisma.workspace.findUniqueOrThrow({ where: { id: options.workspaceId } });
  const ctx = {
    seed,
    random: seededRandom(seed),
    days: options.days ?? 430,
    endDate,
    workspaceId: workspace.id,
    count: options.clients ?? 6,
    baseTime: Date.parse(`${endDate}T12:00:00Z`),
    timeZone: (client: SeededClient) =>
      options.reportTimeZones === 'market' ? timeZoneOf(marketOf(client.name)) : workspace.timezone,
  };
  const { clients, facts } = await seedClients(prisma, ctx);
  const reports = await seedReports(prisma, ctx, clients);
  const { scans, projects } = await seedProjects(prisma, ctx, clients);
  await writeAll(pool, { facts, scans, projects }, options.onProgress);
  return {
    clients: clients.length,
    reports: reports.length,
    projects: projects.size,
    facts: facts.length,
    scans: scans.length,
  };
}

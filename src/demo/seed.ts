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
import { pick, seededRandom, seededRandomFor } from './random.js';
import { competitorCountersFromRuns, countersFromRuns } from '../ai-visibility/index.js';
import { demoPrompts, demoRuns } from './answers.js';
import { demoDomainOf } from './citations.js';
import { addSearchesAndReads } from './searches.js';
import { marketOf, timeZoneOf } from './markets.js';
import { clientFacts } from './facts.js';

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
/**
 * Projects scan daily for this many most recent days and weekly before, every scan with its
 * answers: daily answers over the whole range would make the first `npm start` several times
 * slower (about a million rows of answers, citations, searches and pages read).
 */
const DAILY_SCAN_DAYS = 14;
const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'en-GB'];
const MODELS = ['chatgpt', 'gemini', 'perplexity', 'claude', 'google_ai_overviews'];

const WIDGETS_BY_PROVIDER: Record<ProviderId, (clientIndex: number) => ReportDefinition['widgets']> = {
  google_analytics: () => [
    {
      id: 'ga-kpis',
      type: 'kpi',
      title: 'Traffic',
      provider: 'google_analytics',
      metrics: ['sessions', 'engagement_rate', 'conversions', 'conversion_rate'],
    },
    {
      id: 'ga-sessions',
      type: 'line_chart',
      title: 'Sessions over time',
      provider: 'google_analytics',
      metrics: ['sessions', 'engaged_sessions'],
      granularity: 'day',
    },
    {
      id: 'ga-channels',
      type: 'table',
      title: 'Channels',
      provider: 'google_analytics',
      metrics: ['sessions', 'engagement_rate', 'conversions'],
      dimension: 'channel',
      limit: 10,
    },
  ],
  google_ads: () => [
    {
      id: 'ads-kpis',
      type: 'kpi',
      title: 'Google Ads',
      provider: 'google_ads',
      metrics: ['cost', 'clicks', 'ctr', 'cpc', 'roas'],
    },
    {
      id: 'ads-cost',
      type: 'bar_chart',
      title: 'Spend by week',
      provider: 'google_ads',
      metrics: ['cost', 'conversions'],
      granularity: 'week',
    },
    {
      id: 'ads-campaigns',
      type: 'table',
      title: 'Campaigns',
      provider: 'google_ads',
      metrics: ['cost', 'clicks', 'ctr', 'roas'],
      dimension: 'campaign',
      limit: 5,
    },
  ],
  meta_ads: () => [
    { id: 'meta-kpis', type: 'kpi', title: 'Meta Ads', provider: 'meta_ads', metrics: ['cost', 'reach', 'cpm', 'ctr'] },
    {
      id: 'meta-monthly',
      type: 'line_chart',
      title: 'Meta by month',
      provider: 'meta_ads',
      metrics: ['cost', 'roas'],
      granularity: 'month',
    },
    {
      id: 'meta-devices',
      type: 'table',
      title: 'Devices',
      provider: 'meta_ads',
      metrics: ['clicks', 'cpc'],
      dimension: 'device',
    },
  ],
  google_search_console: () => [
    {
      id: 'gsc-kpis',
      type: 'kpi',
      title: 'Search',
      provider: 'google_search_console',
      metrics: ['clicks', 'impressions', 'ctr', 'average_position'],
    },
    {
      id: 'gsc-clicks',
      type: 'line_chart',
      title: 'Search clicks',
      provider: 'google_search_console',
      metrics: ['clicks', 'average_position'],
      granularity: 'week',
    },
    {
      id: 'gsc-countries',
      type: 'table',
      title: 'Countries',
      provider: 'google_search_console',
      metrics: ['clicks', 'impressions', 'ctr'],
      dimension: 'country',
    },
  ],
};

export async function seedWorkspace(prisma: PrismaClient, pool: pg.Pool, options: SeedOptions) {
  const seed = options.seed ?? 42;
  const random = seededRandom(seed);
  const days = options.days ?? 430;
  const clientCount = options.clients ?? 6;
  const endDate = options.endDate ?? addDays(new Date().toISOString().slice(0, 10), -1);
  const startDate = addDays(endDate, -(days - 1));
  const workspace = await prisma.workspace.findUniqueOrThrow({ where: { id: options.workspaceId } });
  const baseTime = Date.parse(`${endDate}T12:00:00Z`);

  const facts: MetricFactInput[] = [];
  const clients: { id: string; name: string; providers: ProviderId[] }[] = [];
  for (let index = 0; index < clientCount; index++) {
    const name =
      CLIENT_NAMES[index % CLIENT_NAMES.length]! +
      (index >= CLIENT_NAMES.length ? ` ${Math.floor(index / CLIENT_NAMES.length) + 1}` : '');
    const providers = PROVIDERS.filter((_, providerIndex) => providerIndex === 0 || random() < 0.7);
    const client = await prisma.client.create({
      data: {
        id: newId('client'),
        workspaceId: workspace.id,
        name,
        createdAt: new Date(baseTime - (clientCount - index) * 86_400_000 * 7),
      },
    });
    clients.push({ id: client.id, name, providers });
    for (const provider of providers) {
      await prisma.providerConnection.create({
        data: {
          id: newId('connection'),
          workspaceId: workspace.id,
          clientId: client.id,
          provider,
          externalAccountId: `${provider}-${1000 + index}`,
        },
      });
    }
    const clientDays = clientFacts({ seed, clientId: client.id, name, providers, startDate, days }, random);
    for (const fact of clientDays) facts.push(fact);
  }

  const reports = [];
  for (const [index, client] of clients.entries()) {
    const widgets = client.providers.flatMap((provider) => WIDGETS_BY_PROVIDER[provider](index));
    const definition: ReportDefinition = {
      widgets,
      dateConfig: {
        datePreset: pick(random, ['last_30_days', 'last_28_days', 'last_90_days', 'this_month'] as const),
        comparePreset: pick(random, ['previous_period', 'previous_year'] as const),
        timezone: options.reportTimeZones === 'market' ? timeZoneOf(marketOf(client.name)) : workspace.timezone,
      },
    };
    for (const [variant, name] of [
      ['overview', 'Monthly overview'],
      ['detail', 'Channel detail'],
    ] as const) {
      const report = await prisma.report.create({
        data: {
          id: newId('report'),
          workspaceId: workspace.id,
          clientId: client.id,
          name: `${client.name} — ${name}`,
          definition: (variant === 'overview'
            ? definition
            : { ...definition, widgets: widgets.filter((w) => w.type !== 'kpi') }) as object,
          createdAt: new Date(
            baseTime - (clients.length - index) * 86_400_000 * 3 - (variant === 'detail' ? 3_600_000 : 0),
          ),
        },
      });
      reports.push(report.id);
    }
  }

  const scans: ScanInput[] = [];
  const projects = new Map<
    string,
    { workspaceId: string; models: string[]; locales: string[]; competitors: string[] }
  >();
  const scanDays = Math.min(days, 120);
  for (const client of clients.slice(0, Math.max(1, Math.ceil(clients.length / 2)))) {
    const locales = LOCALES.slice(0, 2 + Math.floor(random() * 2));
    const models = MODELS.slice(0, 3 + Math.floor(random() * 3));
    const brand = client.name.split(' ')[0]!;
    const market = marketOf(client.name);
    const competitors = [...market.competitors];
    const project = await prisma.aiProject.create({
      data: {
        id: newId('project'),
        workspaceId: workspace.id,
        clientId: client.id,
        name: `${client.name} AI visibility`,
        brand,
        competitors,
        models,
        locales,
        domains: [demoDomainOf(brand)],
        competitorDomains: competitors.map((name) => ({ name, domains: [demoDomainOf(name)] })),
        // The demo's answers name competitors by coin flip: per-prompt news would fire on every scan.
        signalRules: {
          create: { workspaceId: workspace.id, kind: 'competitor_only_prompt', threshold: 1, enabled: false },
        },
      },
    });
    const prompts = demoPrompts(brand, competitors, market);
    projects.set(project.id, { workspaceId: workspace.id, models, locales, competitors });
    // Each model × locale series has its own level, and days vary around it: like real scans,
    // where a signal rule firing is news rather than daily noise.
    const series = models.flatMap((model) =>
      locales.map((locale) => ({
        model,
        locale,
        visibility: 0.3 + random() * 0.4,
        ownedCitationShare: 0.18 + random() * 0.1,
        position: 1.5 + random() * 2,
        positive: 0.3 + random() * 0.3,
        negative: 0.05 + random() * 0.1,
        competitorShares: competitors.map(() => 0.05 + random() * 0.15),
      })),
    );
    const around = (level: number, spread: number) => Math.max(0, level + (random() - 0.5) * spread);
    // Each series drifts over the months and swings a little (from a PRNG of its own); the newest day is its level.
    const drift = seededRandomFor(`${seed}|${brand}|drift`);
    const drifts = series.map(() => ({
      trend: (drift() - 0.5) * 0.24,
      swing: drift() * 2 * Math.PI,
      moves: (drift() - 0.5) * 1.2,
    }));
    const drifted = (steady: (typeof series)[number], day: number) => {
      const { trend, swing, moves } = drifts[series.indexOf(steady)]!;
      const wave = 0.025 * (Math.sin(day / 11 + swing) - Math.sin(swing));
      const visibility = Math.max(0.05, steady.visibility + (trend * day) / scanDays + wave);
      return { ...steady, visibility, position: steady.position + (moves * day) / scanDays };
    };
    for (let day = 0; day < scanDays; day++) {
      if (day >= DAILY_SCAN_DAYS && day % 7 !== 0) continue;
      const date = addDays(endDate, -day);
      for (const steady of series) {
        // The newest scan of each project's first series is the demo's news: visibility falls,
        // the position worsens, the first competitor overtakes the brand and fewer citations point at
        // the brand's site — signals fire.
        const news = day === 0 && steady === series[0];
        const profile = news
          ? {
              ...steady,
              visibility: steady.visibility - 0.2,
              position: steady.position + 1.5,
              ownedCitationShare: steady.ownedCitationShare - 0.15,
              competitorShares: [0.5, ...steady.competitorShares.slice(1).map(() => 0.05)],
            }
          : drifted(steady, day);
        // A scan asks every tracked prompt once; its counters are its runs' sums.
        const scanKey = `${brand}|${date}|${profile.model}|${profile.locale}`;
        const voice = { market, locale: profile.locale, random: seededRandomFor(`${seed}|${scanKey}|words`) };
        const runs = demoRuns(
          prompts,
          brand,
          competitors,
          { ...profile, visibility: around(profile.visibility, 0.08) },
          random,
          voice,
        );
        addSearchesAndReads(runs, brand, competitors, { news, newsDay: day === 0 }, scanKey, voice);
        scans.push({
          projectId: project.id,
          date,
          model: profile.model,
          locale: profile.locale,
          ...countersFromRuns(runs),
          competitors: competitorCountersFromRuns(runs),
          runs,
        });
      }
    }
  }

  // Facts and scans touch no common row: two transactions side by side, so PostgreSQL writes
  // both while this process builds the next statement (the first start waits on this).
  const total = facts.length + scans.length;
  let factsDone = 0;
  let scansDone = 0;
  const progress = () => options.onProgress?.(factsDone + scansDone, total);
  await Promise.all([
    inTransaction(pool, (connection) =>
      writeMetricFacts(connection, facts, (done) => {
        factsDone = done;
        progress();
      }),
    ),
    inTransaction(pool, (connection) =>
      writeScans(
        connection,
        scans,
        projects,
        (done) => {
          scansDone = done;
          progress();
        },
        { recordEvents: false },
      ),
    ),
  ]);
  return {
    clients: clients.length,
    reports: reports.length,
    projects: projects.size,
    facts: facts.length,
    scans: scans.length,
  };
}

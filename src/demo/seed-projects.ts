// The demo's AI-visibility projects and their scans: each project tracks its market's prompts in
// a few models and locales; each model × locale series has its own level and drifts over the
// months, and the newest scan of the first series is the demo's news (signals fire).
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { newId } from '../db/ids.js';
import { addDays } from '../dates/civil-date.js';
import type { ScanInput } from '../ingest/index.js';
import { competitorCountersFromRuns, countersFromRuns } from '../ai-visibility/index.js';
import { seededRandomFor } from './random.js';
import { demoPrompts, demoRuns } from './answers.js';
import { demoDomainOf } from './citations.js';
import { addSearchesAndReads } from './searches.js';
import { marketOf } from './markets.js';

/**
 * Projects scan daily for this many most recent days and weekly before, every scan with its
 * answers: daily answers over the whole range would make the first `npm start` several times
 * slower (about a million rows of answers, citations, searches and pages read).
 */
const DAILY_SCAN_DAYS = 14;
const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'en-GB'];
const MODELS = ['chatgpt', 'gemini', 'perplexity', 'claude', 'google_ai_overviews'];

/** What the seed shares with each of its parts: the PRNG (drawn in one order), the dates, the workspace. */
export interface SeedContext {
  seed: number;
  random: () => number;
  days: number;
  endDate: string;
  workspaceId: string;
}

export type ProjectShapes = Map<
  string,
  { workspaceId: string; models: string[]; locales: string[]; competitors: string[] }
>;

type Series = ReturnType<typeof seriesOf>[number];

/** Each model × locale series has its own level, and days vary around it: a signal firing is news, not noise. */
function seriesOf(random: () => number, models: string[], locales: string[], competitors: string[]) {
  return models.flatMap((model) =>
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
}

/** Each series drifts over the months and swings a little (from a PRNG of its own); the newest day is its level. */
function drifting(seed: number, brand: string, series: Series[], scanDays: number) {
  const drift = seededRandomFor(`${seed}|${brand}|drift`);
  const drifts = series.map(() => ({
    trend: (drift() - 0.5) * 0.24,
    swing: drift() * 2 * Math.PI,
    moves: (drift() - 0.5) * 1.2,
  }));
  return (steady: Series, day: number): Series => {
    const { trend, swing, moves } = drifts[series.indexOf(steady)]!;
    const wave = 0.025 * (Math.sin(day / 11 + swing) - Math.sin(swing));
    const visibility = Math.max(0.05, steady.visibility + (trend * day) / scanDays + wave);
    return { ...steady, visibility, position: steady.position + (moves * day) / scanDays };
  };
}

/**
 * The newest scan of a project's first series: visibility falls, the position worsens, the first
 * competitor overtakes the brand and fewer citations point at the brand's site.
 */
const newsOf = (steady: Series): Series => ({
  ...steady,
  visibility: steady.visibility - 0.2,
  position: steady.position + 1.5,
  ownedCitationShare: steady.ownedCitationShare - 0.15,
  competitorShares: [0.5, ...steady.competitorShares.slice(1).map(() => 0.05)],
});

async function createProject(
  prisma: PrismaClient,
  ctx: SeedContext,
  client: { id: string; name: string },
  shape: { brand: string; competitors: string[]; models: string[]; locales: string[] },
) {
  const { brand, competitors, models, locales } = shape;
  return prisma.aiProject.create({
    data: {
      id: newId('project'),
      workspaceId: ctx.workspaceId,
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
        create: { workspaceId: ctx.workspaceId, kind: 'competitor_only_prompt', threshold: 1, enabled: false },
      },
    },
  });
}

/** One project for a client, and its scans (daily lately, weekly before), each asking every prompt once. */
async function seedProject(prisma: PrismaClient, ctx: SeedContext, client: { id: string; name: string }) {
  const { random, seed } = ctx;
  const locales = LOCALES.slice(0, 2 + Math.floor(random() * 2));
  const models = MODELS.slice(0, 3 + Math.floor(random() * 3));
  const brand = client.name.split(' ')[0]!;
  const market = marketOf(client.name);
  const competitors = [...market.competitors];
  const project = await createProject(prisma, ctx, client, { brand, competitors, models, locales });
  const prompts = demoPrompts(brand, competitors, market);
  const series = seriesOf(random, models, locales, competitors);
  const around = (level: number, spread: number) => Math.max(0, level + (random() - 0.5) * spread);
  const scanDays = Math.min(ctx.days, 120);
  const drifted = drifting(seed, brand, series, scanDays);
  const scans: ScanInput[] = [];
  for (let day = 0; day < scanDays; day++) {
    if (day >= DAILY_SCAN_DAYS && day % 7 !== 0) continue;
    const date = addDays(ctx.endDate, -day);
    for (const steady of series) {
      const news = day === 0 && steady === series[0];
      const profile = news ? newsOf(steady) : drifted(steady, day);
      // A scan asks every tracked prompt once; its counters are its runs' sums.
      const scanKey = `${brand}|${date}|${profile.model}|${profile.locale}`;
      const voice = { market, locale: profile.locale, random: seededRandomFor(`${seed}|${scanKey}|words`) };
      const asked = { ...profile, visibility: around(profile.visibility, 0.08) };
      const runs = demoRuns(prompts, brand, competitors, asked, random, voice);
      addSearchesAndReads(runs, brand, competitors, { news, newsDay: day === 0 }, scanKey, voice);
      const counters = { ...countersFromRuns(runs), competitors: competitorCountersFromRuns(runs) };
      scans.push({ projectId: project.id, date, model: profile.model, locale: profile.locale, ...counters, runs });
    }
  }
  return { id: project.id, shape: { workspaceId: ctx.workspaceId, models, locales, competitors }, scans };
}

/** Projects for the first half of the clients (at least one), with their scans. */
export async function seedProjects(prisma: PrismaClient, ctx: SeedContext, clients: { id: string; name: string }[]) {
  const scans: ScanInput[] = [];
  const projects: ProjectShapes = new Map();
  for (const client of clients.slice(0, Math.max(1, Math.ceil(clients.length / 2)))) {
    const project = await seedProject(prisma, ctx, client);
    projects.set(project.id, project.shape);
    for (const scan of project.scans) scans.push(scan);
  }
  return { scans, projects };
}

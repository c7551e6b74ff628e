import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../src/demo/seed.js';
import { DEMO_OWNER_EMAIL, seedDemoIfEmpty } from '../../src/demo/first-start.js';
import { MARKETS, marketOf, timeZoneOf } from '../../src/demo/markets.js';
import { demoPrompts } from '../../src/demo/answers.js';
import { apportion } from '../../src/demo/mixes.js';
import { catalog, PROVIDERS } from '../../src/reports/index.js';
import { demoGapSourceOf } from '../../src/demo/searches.js';
import { demoKeyPageOf } from '../../src/demo/citations.js';
import { createTestDatabase } from '../support/database.js';
import { call, signIn } from '../support/web.js';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';

describe('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('seeds deterministically: the same options give the same numbers', async () => {
    const seedInto = async () => {
      const { workspace } = await createKeyedWorkspace(t.database);
      await seedWorkspace(t.database.prisma, t.database.pool, {
        workspaceId: workspace.id,
        days: 20,
        clients: 3,
        endDate: '2026-10-31',
      });
      const facts = await t.database.pool.query(
        `SELECT c.name, f.provider, f.date, f.dimension, f.dimension_value, f.clicks, f.sessions, f.cost
         FROM metric_facts f JOIN clients c ON c.id = f.client_id WHERE c.workspace_id = $1
         ORDER BY 1, 2, 3, 4, 5`,
        [workspace.id],
      );
      const scans = await t.database.pool.query(
        `SELECT p.name, s.date, s.model, s.locale, s.total_runs, s.visibility_count
          FROM scans s JOIN ai_projects p ON p.id = s.project_id WHERE s.workspace_id = $1 ORDER BY 1, 2, 3, 4`,
        [workspace.id],
      );
      const reports = await t.database.prisma.report.findMany({
        where: { workspaceId: workspace.id },
        orderBy: { name: 'asc' },
        select: { name: true, definition: true },
      });
      return { facts: facts.rows, scans: scans.rows, reports };
    };
    const first = await seedInto();
    const second = await seedInto();
    expect(first.facts.length).toBeGreaterThan(100);
    expect(first.scans.length).toBeGreaterThan(10);
    expect(second).toEqual(first);
    // Two seedings of 20 days: ~2 s each on a quiet machine, 15+ s beside another suite. The limit only catches a hang.
  }, 120_000);
});

// The demo a new user meets on the first start, read as a careful reader would.
describe('the first-start demo', () => {
  let empty: TestApp;
  let demo: NonNullable<Awaited<ReturnType<typeof seedDemoIfEmpty>>>;
  beforeAll(async () => {
    empty = await createTestApp({}, { url: await createTestDatabase() });
    demo = (await seedDemoIfEmpty(empty.database.prisma, empty.database.pool))!;
  }, 180_000);
  afterAll(() => empty?.close());
  const rows = async <T extends object>(sql: string, values: unknown[] = []) =>
    (await empty.database.pool.query(sql, values)).rows as T[];

  it(
    'gives the demo owner a password that signs in, and a key for v1; ' + 'the news in the data fires signals',
    async () => {
      expect(demo.ownerPassword).toMatch(/^[A-Za-z0-9_-]{20}$/);
      const auth = await signIn(empty.app, DEMO_OWNER_EMAIL, demo.ownerPassword);
      expect((await call(empty.app, auth, 'GET', '/app/session')).status).toBe(200);
      expect((await empty.get('/api/v1/clients', demo.secret)).status).toBe(200);
      const kinds = (await rows<{ kind: string }>('SELECT DISTINCT kind FROM signals ORDER BY kind')).map(
        (row) => row.kind,
      );
      expect(kinds).toEqual([
        'average_position_worse',
        'owned_citation_share_drop',
        'share_of_voice_overtaken',
        'visibility_drop',
      ]);
      expect(await seedDemoIfEmpty(empty.database.prisma, empty.database.pool)).toBeNull();
    },
  );

  it('has an answer for every run of every scan, over the whole scan range', async () => {
    const [range] = await rows<{ days: number; without: number }>(
      `SELECT max(date) - min(date) + 1 AS days,
              count(*) FILTER (WHERE total_runs = 0 OR total_runs <> (SELECT count(*)
              FROM ai_answers a WHERE a.scan_id = s.id))::int AS without
       FROM scans s`,
    );
    expect(range).toEqual({ days: 120, without: 0 });
  });

  it('answers name exactly the brands their counts say, and the competitor their prompt asks about', async () => {
    const answers = await rows<{
      text: string;
      prompt: string;
      brand_mentions: number;
      total_mentions: number;
      competitors: { name: string; mentions: number }[];
      brand: string;
      names: string[];
      project: string;
    }>(
      `SELECT a.text, pr.text AS prompt, a.brand_mentions, a.total_mentions, a.competitors, p.brand,
        p.competitors AS names, p.name AS project
       FROM ai_answers a JOIN ai_projects p ON p.id = a.project_id JOIN ai_prompts pr ON pr.id = a.prompt_id`,
    );
    const occurrences = (text: string, name: string) => text.split(new RegExp(`\\b${name}\\b`)).length - 1;
    const wrong = answers.filter((answer) => {
      const competitorMentions = answer.names.map(
        (name) => answer.competitors.find((entry) => entry.name === name)?.mentions ?? 0,
      );
      const others = marketOf(answer.project.replace(/ AI visibility$/, '')).others.reduce(
        (sum, name) => sum + occurrences(answer.text, name),
        0,
      );
      return (
        occurrences(answer.text, answer.brand) !== answer.brand_mentions ||
        answer.names.some((name, index) => occurrences(answer.text, name) !== competitorMentions[index]) ||
        answer.total_mentions !== answer.brand_mentions + competitorMentions.reduce((a, b) => a + b, 0) + others ||
        answer.names.some((name) => answer.prompt.includes(name) && !answer.text.includes(name))
      );
    });
    expect(answers.length).toBeGreaterThan(1000);
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('cites each page at most once per answer', async () => {
    expect(
      await rows('SELECT answer_id, url, count(*)::int FROM ai_citations GROUP BY 1, 2 HAVING count(*) > 1 LIMIT 3'),
    ).toEqual([]);
    expect((await rows<{ count: number }>('SELECT count(*)::int FROM ai_citations'))[0]!.count).toBeGreaterThan(1000);
  });

  it("keeps its news: on the day visibility drops, the brand's key page is read and never cited", async () => {
    const projects = await rows<{ brand: string; client: string }>(
      'SELECT p.brand, c.name AS client FROM ai_projects p JOIN clients c ON c.id = p.client_id',
    );
    const keyPages = projects.map(({ brand, client }) => demoKeyPageOf(brand, marketOf(client)).url);
    const read = await rows<{ url: string; cited: boolean }>(
      `SELECT r.url, r.cited
        FROM ai_answers a, jsonb_to_recordset(a.pages_read) AS r(url text, cited boolean)
       WHERE a.date = (SELECT max(date) FROM scans) AND r.url = ANY($1::text[])`,
      [keyPages],
    );
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((row) => row.cited)).toEqual([]);
    // Before that day, runs naming the brand cite it.
    const citedBefore = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM ai_citations
        WHERE date < (SELECT max(date) FROM scans) AND url = ANY($1::text[])`,
      [keyPages],
    );
    expect(citedBefore[0]!.n).toBeGreaterThan(0);
  });

  it(
    'has a source cited only by answers that name a competitor and leave the brand ' +
      "out, for the sources opportunity: a review site of the market's kind",
    async () => {
      const projects = await rows<{ id: string; client: string; competitor: string }>(
        `SELECT p.id, c.name AS client, p.competitors[1] AS competitor
          FROM ai_projects p JOIN clients c ON c.id = p.client_id`,
      );
      for (const { id, client, competitor } of projects) {
        const market = marketOf(client);
        const domain = new URL(demoGapSourceOf(competitor, market).url).hostname.replace(/^www\./, '');
        const [gaps] = await rows<{ gap: number; brand: number }>(
          `SELECT coalesce(sum(gap_answers), 0)::int AS gap, coalesce(sum(brand_answers), 0)::int AS brand
            FROM ai_source_totals WHERE project_id = $1 AND domain = $2`,
          [id, domain],
        );
        expect(gaps, `${client}: ${domain}`).toEqual({ gap: expect.any(Number), brand: 0 });
        expect(gaps!.gap, `${client}: ${domain}`).toBeGreaterThan(3);
        // A coffee roaster's answers cite no software review site.
        if (market.kind !== 'software') {
          const [software] = await rows<{ n: number }>(
            "SELECT count(*)::int AS n FROM ai_source_totals WHERE project_id = $1 AND domain = 'trustradius.com'",
            [id],
          );
          expect(software!.n, client).toBe(0);
        }
      }
    },
  );
  // What a marketer would not believe: fractions of a visit, six channels at a sixth each, the same
  // competitors for a coffee roaster and a software tool, English answers in Germany, one sentence
  // over and over.
  it('counts whole visits, clicks and conversions, and its splits add up to the day exactly', async () => {
    const counts = [
      ...new Set(
        PROVIDERS.flatMap((provider) =>
          Object.values(catalog[provider].metrics).flatMap((metric) =>
            metric.kind === 'base' && metric.unit === 'count' ? [metric.column] : [],
          ),
        ),
      ),
    ];
    const money = ['cost', 'conversion_value'];
    const [fractions] = await rows<Record<string, number>>(
      `SELECT ${[
        ...counts.map((column) => `count(*) FILTER (WHERE ${column} <> trunc(${column}))::int AS ${column}`),
        ...money.map(
          (column) => `count(*) FILTER (WHERE abs(${column} * 100 - round(${column} * 100)) > 1e-6)::int AS ${column}`,
        ),
      ].join(', ')} FROM metric_facts`,
    );
    expect(fractions).toEqual(Object.fromEntries([...counts, ...money].map((column) => [column, 0])));
    const unequal = await rows(
      `SELECT t.client_id, t.provider, t.date, s.dimension FROM metric_facts t
       JOIN (SELECT client_id, provider, date, dimension,
       ${counts.map((column) => `sum(${column}) AS ${column}`).join(', ')}
       FROM metric_facts WHERE dimension <> '' GROUP BY 1, 2, 3, 4) s
         ON s.client_id = t.client_id AND s.provider = t.provider AND s.date = t.date
       WHERE t.dimension = '' AND (${counts.map((column) => `t.${column} IS DISTINCT FROM s.${column}`).join(' OR ')})
       LIMIT 3`,
    );
    expect(unequal).toEqual([]);
  });

  it('gives each client its own channel mix, led by organic search, with email small', async () => {
    const channels = await rows<{ client: string; channel: string; share: number }>(
      `SELECT c.name AS client, f.dimension_value AS channel,
        (sum(f.sessions) / sum(sum(f.sessions)) OVER (PARTITION BY c.name))::float AS share
       FROM metric_facts f JOIN clients c ON c.id = f.client_id
       WHERE f.dimension = 'channel' GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const mixes = new Map<string, typeof channels>();
    for (const row of channels) mixes.set(row.client, [...(mixes.get(row.client) ?? []), row]);
    expect(mixes.size).toBeGreaterThan(3);
    for (const [client, mix] of mixes) {
      const share = (channel: string) => mix.find((row) => row.channel === channel)!.share;
      const shares = mix.map((row) => row.share);
      expect(Math.max(...shares), client).toBe(share('Organic Search'));
      expect(share('Email'), client).toBeLessThan(0.12);
      expect(Math.max(...shares) / Math.min(...shares), client).toBeGreaterThan(3);
    }
    const list = [...mixes.values()];
    for (const [index, mix] of list.entries()) {
      for (const other of list.slice(index + 1)) {
        expect(Math.max(...mix.map((row, channel) => Math.abs(row.share - other[channel]!.share)))).toBeGreaterThan(
          0.02,
        );
      }
    }
  });

  it("names competitors of each project's own market, and no two projects share them", async () => {
    const projects = await rows<{ name: string; competitors: string[]; named: string[] }>(
      `SELECT p.name, p.competitors, array(SELECT DISTINCT c->>'name'
        FROM ai_answers a, jsonb_array_elements(a.competitors) c WHERE a.project_id = p.id ORDER BY 1) AS named
       FROM ai_projects p ORDER BY p.name`,
    );
    expect(projects.length).toBeGreaterThan(1);
    const all = projects.flatMap((project) => project.competitors);
    expect(new Set(all).size).toBe(all.length);
    for (const project of projects) expect(project.named, project.name).toEqual([...project.competitors].sort());
  });

  it("writes every answer in its locale's language", async () => {
    const STOP_WORDS: Record<string, readonly string[]> = {
      en: ['the', 'and', 'is', 'are', 'for', 'to', 'of', 'with', 'its', 'you', 'your', 'or'],
      de: [
        'und',
        'die',
        'der',
        'das',
        'ist',
        'sind',
        'mit',
        'für',
        'bei',
        'von',
        'wird',
        'werden',
        'den',
        'auf',
        'es',
        'oder',
      ],
      fr: ['les', 'des', 'et', 'est', 'pour', 'sur', 'le', 'la', 'de', 'une', 'vous', 'sont', 'souvent', 'ou'],
    };
    const languageOf = (text: string) => {
      const words = text.toLowerCase().split(/[^\p{L}]+/u);
      const hits = Object.entries(STOP_WORDS).map(
        ([language, stop]) => [language, words.filter((word) => stop.includes(word)).length] as const,
      );
      const [best, count] = hits.reduce((a, b) => (b[1] > a[1] ? b : a));
      return count > 0 && hits.filter((hit) => hit[1] === count).length === 1 ? best : 'unknown';
    };
    const answers = await rows<{ locale: string; text: string }>('SELECT locale, text FROM ai_answers');
    expect(new Set(answers.map((answer) => answer.locale))).toEqual(new Set(['en-US', 'de-DE', 'fr-FR']));
    const wrong = answers.filter((answer) => languageOf(answer.text) !== answer.locale.slice(0, 2));
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  // What a marketer would not believe either: every client paying the same per click, Google Ads
  // counting three times the visits Analytics saw, a pricing page titled "features".
  it('gives each client its own cost per click and return on ad spend', async () => {
    const paid = await rows<{ client: string; provider: string; cpc: number; roas: number }>(
      `SELECT c.name AS client, f.provider, (sum(f.cost) / sum(f.clicks))::float AS cpc,
              (sum(f.conversion_value) / sum(f.cost))::float AS roas
       FROM metric_facts f JOIN clients c ON c.id = f.client_id
       WHERE f.dimension = '' AND f.provider IN ('google_ads', 'meta_ads') GROUP BY 1, 2`,
    );
    for (const provider of ['google_ads', 'meta_ads']) {
      const clients = paid.filter((row) => row.provider === provider);
      expect(clients.length, provider).toBeGreaterThan(1);
      const spread = (values: number[]) => Math.max(...values) / Math.min(...values);
      expect(spread(clients.map((row) => row.cpc)), provider).toBeGreaterThan(1.5);
      expect(spread(clients.map((row) => row.roas)), provider).toBeGreaterThan(1.3);
      for (const row of clients) {
        expect(row.cpc, `${row.client} ${provider}`).toBeGreaterThan(0.3);
        expect(row.cpc, `${row.client} ${provider}`).toBeLessThan(8);
        expect(row.roas, `${row.client} ${provider}`).toBeGreaterThan(0.8);
        expect(row.roas, `${row.client} ${provider}`).toBeLessThan(8);
      }
    }
  });

  it("counts clicks in the ratio a provider's clicks have to the sessions of their channel", async () => {
    const days = await rows<{ client: string; provider: string; date: string; clicks: number; sessions: number }>(
      `SELECT c.name AS client, p.provider, p.date::text, p.clicks::int, s.sessions::int
       FROM metric_facts p JOIN clients c ON c.id = p.client_id
       JOIN metric_facts s ON s.client_id = p.client_id AND s.date = p.date
         AND s.provider = 'google_analytics' AND s.dimension = 'channel'
         AND s.dimension_value = CASE p.provider
           WHEN 'google_ads' THEN 'Paid Search' WHEN 'meta_ads' THEN 'Social' ELSE 'Organic Search' END
       WHERE p.dimension = '' AND p.provider IN ('google_ads', 'meta_ads', 'google_search_console')`,
    );
    const RATIOS: Record<string, [number, number]> = {
      google_ads: [1.05, 1.3],
      meta_ads: [1.1, 1.8],
      google_search_console: [0.6, 0.95],
    };
    const totals = new Map<string, { clicks: number; sessions: number }>();
    for (const day of days) {
      const key = `${day.client} ${day.provider}`;
      const total = totals.get(key) ?? { clicks: 0, sessions: 0 };
      totals.set(key, { clicks: total.clicks + day.clicks, sessions: total.sessions + day.sessions });
    }
    expect([...totals.keys()].filter((key) => key.endsWith('google_ads')).length).toBeGreaterThan(1);
    for (const [key, { clicks, sessions }] of totals) {
      const [low, high] = RATIOS[key.split(' ').at(-1)!]!;
      expect(clicks / sessions, key).toBeGreaterThanOrEqual(low);
      expect(clicks / sessions, key).toBeLessThanOrEqual(high);
    }
    // Every day an ad brings at least the visits Analytics saw from it; a paused day, a trickle.
    const ads = days.filter((day) => day.provider === 'google_ads');
    expect(ads.filter((day) => day.clicks > 0 && day.clicks < day.sessions).slice(0, 3)).toEqual([]);
    for (const paused of ads.filter((day) => day.clicks === 0)) {
      const clientDays = ads.filter((day) => day.client === paused.client).length;
      const usual = totals.get(`${paused.client} google_ads`)!.sessions / clientDays;
      expect(paused.sessions, `${paused.client} ${paused.date}`).toBeLessThan(usual * 0.4);
    }
  });

  it('cites pages under titles that say what their address is', async () => {
    const pages = await rows<{ url: string; title: string }>(
      `SELECT DISTINCT page->>'url' AS url, page->>'title' AS title
       FROM ai_answers a, jsonb_array_elements(a.citations || a.retrieved) page WHERE page->>'title' IS NOT NULL`,
    );
    expect(pages.length).toBeGreaterThan(100);
    expect(pages.filter(({ url, title }) => !titleFitsAddress(url, title)).slice(0, 5)).toEqual([]);
    // A page has one title, whichever answer cites it.
    const titles = new Map<string, string[]>();
    for (const { url, title } of pages) titles.set(url, [...(titles.get(url) ?? []), title]);
    expect([...titles].filter(([, named]) => named.length > 1).slice(0, 3)).toEqual([]);
  });

  // A trial found the demo templated: the same prompts and sites for a roaster and a SaaS, Shopping
  // campaigns for a dentist, every client growing in the same straight line.
  it('answers "Alternatives to X" with others: X is named, never ranked among them', async () => {
    const answers = await rows<{
      prompt: string;
      competitors: { name: string; mentions: number; position: number | null }[];
    }>(
      `SELECT pr.text AS prompt, a.competitors
        FROM ai_answers a JOIN ai_prompts pr ON pr.id = a.prompt_id WHERE pr.text LIKE 'Alternatives to %'`,
    );
    expect(answers.length).toBeGreaterThan(50);
    const wrong = answers.filter(({ prompt, competitors }) => {
      const asked = competitors.find((entry) => entry.name === prompt.replace('Alternatives to ', ''));
      return !asked || asked.position !== null || asked.mentions !== 1;
    });
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('cites sites of its market and locale, each page once per answer and read pages with titles', async () => {
    const pages = await rows<{ project: string; locale: string; url: string; title: string | null; answer: string }>(
      `SELECT p.name AS project, a.locale, r.url, r.title, a.id AS answer
       FROM ai_answers a JOIN ai_projects p ON p.id = a.project_id,
       jsonb_to_recordset(a.citations || a.retrieved) AS r(url text, title text)`,
    );
    const own = new Set(
      (await rows<{ d: string }>(`SELECT unnest(domains) AS d FROM ai_projects`)).map((row) => row.d),
    );
    // A site: its domain, and a subreddit on reddit.com (r/Coffee is not r/analytics).
    const host = (url: string) => {
      const { hostname, pathname } = new URL(url);
      const domain = hostname.replace(/^(www|blog|help|forums?)\./, '');
      return domain === 'reddit.com' ? `${domain}/${pathname.split('/')[2]}` : domain;
    };
    const web = (project: string, locale?: string) =>
      new Set(
        pages
          .filter((page) => page.project === project && (!locale || page.locale === locale))
          .map((page) => host(page.url))
          .filter(
            (domain) =>
              !own.has(domain) &&
              !marketOf(project.replace(/ AI visibility$/, '')).competitors.some((name) =>
                domain.startsWith(name.toLowerCase().replace(/[^a-z0-9]/g, '')),
              ),
          ),
      );
    const projects = [...new Set(pages.map((page) => page.project))];
    for (const [index, project] of projects.entries()) {
      for (const other of projects.slice(index + 1)) {
        // In English: German and French answers share their language's sites.
        const mine = web(project, 'en-US');
        const shared = [...mine].filter((domain) => web(other, 'en-US').has(domain));
        expect(shared.length / mine.size, `${project} and ${other} share ${shared}`).toBeLessThan(0.5);
      }
      expect(
        [...web(project, 'de-DE')].some((domain) => domain.endsWith('.de') || domain.endsWith('.net')),
        project,
      ).toBe(true);
      expect(
        [...web(project, 'en-US')].filter((domain) => /\.(de|fr)$/.test(domain)),
        project,
      ).toEqual([]);
    }
    expect(
      [...web(projects[0]!, 'fr-FR'), ...web(projects[1]!, 'fr-FR'), ...web(projects[2]!, 'fr-FR')].some((domain) =>
        domain.endsWith('.fr'),
      ),
    ).toBe(true);
    // No page numbered like a placeholder (/compare/16, ?search_query=3), none untitled, none twice in an answer.
    expect(pages.filter((page) => /\/\d{1,2}\/?$|search_query=/.test(page.url)).slice(0, 3)).toEqual([]);
    expect(pages.filter((page) => !page.title).slice(0, 3)).toEqual([]);
    // A roaster's or an outdoor shop's rivals have no "Features" page or "Help Center": software has.
    const softwarePages = pages.filter(
      (page) =>
        marketOf(page.project.replace(/ AI visibility$/, '')).kind !== 'software' &&
        /Help Center|Features —|Billing/.test(page.title ?? ''),
    );
    expect(softwarePages.slice(0, 3)).toEqual([]);
    const read = await rows(
      `SELECT a.id, r.url FROM ai_answers a, jsonb_to_recordset(a.retrieved) AS r(url text)
        GROUP BY 1, 2 HAVING count(*) > 1 LIMIT 3`,
    );
    expect(read).toEqual([]);
  });

  it('searches in the language of the answer', async () => {
    const queries = await rows<{ locale: string; query: string }>(
      `SELECT DISTINCT a.locale, q AS query
        FROM ai_answers a, jsonb_array_elements_text(a.search_queries) q WHERE a.locale IN ('de-DE', 'fr-FR')`,
    );
    expect(queries.length).toBeGreaterThan(20);
    const english = /\b(best|what|which|how|the|for|does|is|near)\b/;
    expect(queries.filter(({ query }) => english.test(query)).slice(0, 5)).toEqual([]);
  });

  it('runs the campaigns of its kind of business, and clicks and costs differ by country and device', async () => {
    const campaigns = await rows<{ client: string; provider: string; names: string[] }>(
      `SELECT c.name AS client, f.provider, array_agg(DISTINCT f.dimension_value) AS names
       FROM metric_facts f JOIN clients c ON c.id = f.client_id WHERE f.dimension = 'campaign' GROUP BY 1, 2`,
    );
    expect(campaigns.length).toBeGreaterThan(2);
    for (const { client, provider, names } of campaigns) {
      const kind = marketOf(client).kind;
      expect(names.includes('Shopping') || names.includes('Catalogue sales'), client).toBe(kind === 'shop');
      if (provider === 'meta_ads')
        expect(
          names.filter((name) => ['Brand', 'Generic search'].includes(name)),
          client,
        ).toEqual([]);
    }
    expect(
      new Set(campaigns.filter((row) => row.provider === 'google_ads').map((row) => row.names.join())).size,
    ).toBeGreaterThan(1);
    const ratios = await rows<{ client: string; dimension: string; ctr: number[]; cpc: number[] }>(
      `SELECT c.name AS client, f.dimension, array_agg((sum_clicks / nullif(sum_impressions, 0))::float) AS ctr,
        array_agg((sum_cost / nullif(sum_clicks, 0))::float) AS cpc
       FROM (SELECT client_id, dimension, dimension_value, sum(clicks) AS sum_clicks,
       sum(impressions) AS sum_impressions, sum(cost) AS sum_cost
             FROM metric_facts WHERE provider = 'google_ads' AND dimension IN ('country', 'device') GROUP BY 1, 2, 3) f
       JOIN clients c ON c.id = f.client_id GROUP BY 1, 2`,
    );
    const spread = (values: number[]) => Math.max(...values) / Math.min(...values);
    for (const row of ratios) {
      if (row.dimension === 'country') expect(spread(row.ctr), `${row.client} CTR by country`).toBeGreaterThan(1.1);
      if (row.dimension === 'device') expect(spread(row.cpc), `${row.client} CPC by device`).toBeGreaterThan(1.15);
    }
  });

  it('sizes clients by their kind, and each grows at its own pace with its seasons', async () => {
    const months = await rows<{ client: string; month: string; sessions: number; cost: number | null }>(
      `SELECT c.name AS client, to_char(f.date, 'YYYY-MM') AS month,
              (sum(f.sessions) FILTER (WHERE f.provider = 'google_analytics'))::float AS sessions,
              (sum(f.cost) FILTER (WHERE f.provider = 'google_ads'))::float AS cost
       FROM metric_facts f JOIN clients c ON c.id = f.client_id
       WHERE f.dimension = '' GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const byClient = new Map<string, typeof months>();
    for (const row of months) byClient.set(row.client, [...(byClient.get(row.client) ?? []), row]);
    // Full months only: the first and last are cut by the range.
    const full = [...byClient].map(([client, list]) => [client, list.slice(1, -1)] as const);
    const typical = (list: readonly { sessions: number }[]) =>
      list.reduce((sum, row) => sum + row.sessions, 0) / list.length;
    const local = full.filter(([client]) => marketOf(client).kind === 'local');
    const software = full.filter(([client]) => marketOf(client).kind === 'software');
    expect(local.length && software.length).toBeGreaterThan(0);
    for (const [client, list] of local) {
      for (const [other, theirs] of software)
        expect(typical(list), `${client} < ${other}`).toBeLessThan(typical(theirs));
      expect(Math.max(...list.map((row) => row.cost ?? 0)), `${client} ad spend a month`).toBeLessThan(15_000);
    }
    // A year's growth, month against the same month a year before: some grow fast, some shrink.
    const growth = full.map(([, list]) => list[12]!.sessions / list[0]!.sessions);
    expect(Math.max(...growth) - Math.min(...growth), `${growth}`).toBeGreaterThan(0.2);
    for (const [client, list] of full) {
      // Seasons: some month falls well below the one before.
      expect(
        list.some((row, index) => index > 0 && row.sessions < list[index - 1]!.sessions * 0.93),
        client,
      ).toBe(true);
    }
  });

  it('lets AI visibility drift over the months', async () => {
    const series = await rows<{ old: number; recent: number }>(
      `SELECT avg(visibility_count::float / total_runs) FILTER (WHERE date < (SELECT max(date) FROM scans) - 84) AS old,
              avg(visibility_count::float / total_runs) FILTER (WHERE date BETWEEN (SELECT max(date)
              FROM scans) - 30 AND (SELECT max(date) FROM scans) - 1) AS recent
       FROM scans GROUP BY project_id, model, locale`,
    );
    expect(series.length).toBeGreaterThan(6);
    expect(series.filter((row) => Math.abs(row.recent - row.old) > 0.04).length).toBeGreaterThan(series.length / 3);
  });

  it("writes each client's reports in its market's time zone; the workspace keeps its own", async () => {
    const reports = await rows<{ client: string; timezone: string; workspace: string }>(
      `SELECT c.name AS client, r.definition->'dateConfig'->>'timezone' AS timezone, w.timezone AS workspace
       FROM reports r JOIN clients c ON c.id = r.client_id JOIN workspaces w ON w.id = r.workspace_id`,
    );
    expect(reports.length).toBeGreaterThan(5);
    for (const report of reports) expect(report.timezone, report.client).toBe(timeZoneOf(marketOf(report.client)));
    expect(new Set(reports.map((report) => report.timezone)).size).toBeGreaterThan(2);
    expect(new Set(reports.map((report) => report.workspace))).toEqual(new Set(['Europe/Berlin']));
  });

  it('varies its answers: no text is more than 1 % of a locale’s answers', async () => {
    const [top] = await rows<{ locale: string; text: string; share: number }>(
      `SELECT locale, text, (count(*) / sum(count(*)) OVER (PARTITION BY locale))::float AS share
        FROM ai_answers GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1`,
    );
    expect(top!.share, top!.text).toBeLessThan(0.01);
  });
});

/**
 * A title fits its address when it names the site (a label of the host, or a section of the path such
 * as r/smallbusiness) and says what the page is: every word of the address's last part is in it, and
 * a last part without words is an opaque id (8 characters or more), not a counter like /wiki/17.
 */
function titleFitsAddress(url: string, title: string): boolean {
  // Accents dropped on both sides: "Kaffeeröstereien" is kaffeerostereien in an address.
  const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const squash = (text: string) => plain(text).replace(/[^a-z0-9]+/g, '');
  const words = (text: string) =>
    plain(text)
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length >= 3 && !/\d/.test(word));
  const { hostname, pathname } = new URL(url);
  const said = squash(title);
  const segments = pathname.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const generic = ['www', 'blog', 'help', 'com', 'org', 'net', 'co', 'uk'];
  const labels = hostname.split('.').filter((label) => !generic.includes(label));
  const site = [...labels, ...segments.slice(0, -1).flatMap(words)];
  const page = words(last);
  const namesSite = site.some((word) => said.includes(squash(word)));
  return namesSite && page.every((word) => said.includes(word)) && (page.length > 0 || last.length >= 8 || !last);
}

describe('demo prompts', () => {
  const markets = Object.values(MARKETS).filter((market, index, all) => all.indexOf(market) === index);
  const promptsOf = (market: (typeof markets)[number]) =>
    demoPrompts('Brand', market.competitors, market).map((prompt) =>
      prompt.text.replaceAll(new RegExp(market.competitors.join('|'), 'g'), 'X'),
    );

  it(
    'asks what a person would ask about the kind of business: near me only of a local ' +
      'firm, delivery only of a shop that ships',
    () => {
      for (const market of markets) {
        const prompts = demoPrompts('Brand', market.competitors, market);
        const local = prompts.filter((prompt) => prompt.topic === 'local' || /near me|my city|\{/.test(prompt.text));
        expect(local.length > 0, market.category).toBe(market.kind === 'local');
        expect(
          prompts.some((prompt) => /deliver|\bship\b/.test(prompt.text)),
          market.category,
        ).toBe(Boolean(market.ships));
        expect(
          prompts.some((prompt) => prompt.tags.includes('budget')),
          market.category,
        ).toBe(true);
        // No "How much does a coffee roaster cost?", no "small business" for what people buy for themselves.
        expect(
          prompts.filter((prompt) => /how much does an? /i.test(prompt.text) && prompt.text.includes(market.category)),
          market.category,
        ).toEqual([]);
        expect(
          prompts.filter((prompt) => /small business/.test(prompt.text)),
          market.category,
        ).toEqual([]);
      }
    },
  );

  it('gives each market mostly prompts of its own', () => {
    for (const market of markets) {
      const others = new Set(markets.filter((other) => other !== market).flatMap(promptsOf));
      const own = promptsOf(market).filter((text) => !others.has(text));
      expect(own.length / promptsOf(market).length, market.category).toBeGreaterThan(0.5);
    }
  });
});

describe('apportion', () => {
  it('splits a whole total into whole parts that add up to it, closest to the weights', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(7, [0.5, 0.3, 0.2])).toEqual([4, 2, 1]);
    expect(apportion(0, [1, 2])).toEqual([0, 0]);
  });
});

// Signal rules through the real ingest path and the graph: what fires, with which numbers,
// under the project's own thresholds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/db/paging.js';
import { connectionBinding } from '../../src/graphql/connection.js';
import { setRule } from '../../src/signals/rule-management.js';
import { OPERATOR } from '../../src/workspaces/actor.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { ingestScans, SCAN_COUNTERS } from '../support/ingest.js';
import { quietRun } from '../support/scan-lines.js';
import { createProject } from '../support/projects.js';

const TOKEN = 's'.repeat(40);
let t: TestApp;
let key: string;

const ingest = (lines: object[]) => ingestScans(t.app, TOKEN, lines);
const graphql = async (query: string, variables: Record<string, unknown>) =>
  json(
    await t.app.fetch(
      new Request('http://test.local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query, variables }),
      }),
    ),
  );

async function project() {
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  const created = await createProject(t.database, keyed.workspace.id, {
    name: 'P',
    competitors: ['Globex'],
    models: ['chatgpt', 'gemini'],
    locales: ['en-US', 'de-DE'],
  });
  const scan = (date: string, overrides: Record<string, unknown> = {}) => ({
    project: created.id,
    date,
    model: 'chatgpt',
    locale: 'en-US',
    ...SCAN_COUNTERS,
    ...overrides,
  });
  const runsScan = (date: string, runs: object[]) => ({
    project: created.id,
    date,
    model: 'chatgpt',
    locale: 'en-US',
    runs,
  });
  const citingScan = (date: string, ...urls: string[]) => runsScan(date, [citing(...urls)]);
  return { id: created.id, scan, runsScan, citingScan };
}

/** The signal of an owned citation share from 50 % to 25 % (the default threshold: 10 points). */
const OWNED_SHARE_HALVED = {
  kind: 'owned_citation_share_drop',
  model: 'chatgpt',
  locale: 'en-US',
  scanId: expect.stringMatching(/^scn_/),
  details: {
    metric: 'ownedCitationShare',
    before: 0.5,
    after: 0.25,
    threshold: 10,
    previousScanId: expect.stringMatching(/^scn_/),
  },
};

/** One run of a scan that cites these URLs and names no one. */
const citing = (...urls: string[]) => quietRun({ citations: urls.map((url) => ({ url })) });

const SIGNALS =
  'query($id: ID!) { node(id: $id) { ... on AiVisibilityProject { signals { nodes { kind model locale scanId ' +
  'details } } signalRules { kind threshold enabled defaultThreshold } } } }';

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
});
afterAll(() => t.close());

describe('rule preview', () => {
  it('counts where a rule at a threshold would have fired over past scans, storing nothing', async () => {
    const { id, scan } = await project();
    await ingest([
      scan('2026-10-01'),
      scan('2026-10-02', { visibilityCount: 20, positionedCount: 20, positionSum: 40 }),
      scan('2026-10-03'),
    ]);
    const signalsBefore = (
      await t.database.pool.query('SELECT count(*)::int AS n FROM signals WHERE project_id = $1', [id])
    ).rows[0].n;
    const preview = async (threshold: number) => {
      const body = await graphql(
        'query($id: ID!, $t: Float) { node(id: $id) { ... on AiVisibilityProject { rulePreview(kind: ' +
          'visibility_drop, threshold: $t, dateFrom: "2026-10-01", dateTo: "2026-10-31") { scansCompared fired ' +
          'firings { date metric before after } } } } }',
        { id, t: threshold },
      );
      expect(body.errors).toBeUndefined();
      return body.data.node.rulePreview;
    };
    // 50 % → 20 % is a 30-point drop: it fires at 10 and at 30, not at 31.
    expect(await preview(10)).toEqual({
      scansCompared: 2,
      fired: 1,
      firings: [{ date: '2026-10-02', metric: 'visibility', before: 0.5, after: 0.2 }],
    });
    expect((await preview(30)).fired).toBe(1);
    expect((await preview(31)).fired).toBe(0);
    expect(
      (await t.database.pool.query('SELECT count(*)::int AS n FROM signals WHERE project_id = $1', [id])).rows[0].n,
    ).toBe(signalsBefore);
    const bad = await graphql(
      'query($id: ID!) { node(id: $id) { ... on AiVisibilityProject { rulePreview(kind: visibility_drop, ' +
        'threshold: 500) { fired } } } }',
      { id },
    );
    expect(bad.errors[0].extensions.code).toBe('invalid_parameter');
  });
});

describe('signals cursor', () => {
  it(
    'refuses a forged sort value PostgreSQL would not take as a timestamp with invalid_parameter on ' +
      'after, not a 500',
    async () => {
      const { id } = await project();
      const { workspaceId } = await t.database.prisma.aiProject.findUniqueOrThrow({ where: { id } });
      const query =
        'query($id: ID!, $after: String) { node(id: $id) { ... on AiVisibilityProject { signals(after: $after) { ' +
        'nodes { id } } } } }';
      // Cursors as this connection binds them, so only the sort value is wrong.
      const cursor = (sortValue: string) =>
        encodeCursor({ sortValue, id: 'sig_forged' }, connectionBinding(workspaceId, 'Signal', id, {}));
      for (const sortValue of ['0', '1', '99999', '+275760-09-13T00:00:00.000Z', 'Tue, 01 Jan 0000 00:00:00 GMT']) {
        const body = await graphql(query, { id, after: cursor(sortValue) });
        expect(body.errors?.[0]?.extensions, sortValue).toMatchObject({ code: 'invalid_parameter', param: 'after' });
      }
      expect((await graphql(query, { id, after: cursor('2026-10-01T12:00:00.000Z') })).errors).toBeUndefined();
    },
  );
});

describe('signal rules on ingestion', () => {
  it(
    'competitor_only_prompt fires per prompt where a competitor is newly named and the brand is not, ' +
      'with its signal.created payload',
    async () => {
      const { id, runsScan } = await project();
      const run = (prompt: string, brand: boolean, globex: boolean) => ({
        prompt,
        answer: 'a',
        brandMentions: brand ? 1 : 0,
        totalMentions: (brand ? 1 : 0) + (globex ? 1 : 0),
        position: brand ? 1 : null,
        sentiment: null,
        competitors: globex ? [{ name: 'Globex', mentions: 1, position: null }] : [],
      });
      // "best crm": Acme named, then only Globex; "crm pricing": Globex both days (nothing new); "crm reviews": Acme
      // both days.
      await ingest([
        runsScan('2026-10-01', [
          run('best crm', true, false),
          run('crm pricing', false, true),
          run('crm reviews', true, false),
        ]),
      ]);
      await ingest([
        runsScan('2026-10-02', [
          run('best crm', false, true),
          run('crm pricing', false, true),
          run('crm reviews', true, true),
        ]),
      ]);
      const events = await t.database.pool.query(
        "SELECT payload FROM webhook_events WHERE type = 'signal.created' AND payload->>'projectId' = $1 AND " +
          "payload->>'kind' = 'competitor_only_prompt'",
        [id],
      );
      const promptId = (
        await t.database.prisma.aiPrompt.findFirstOrThrow({ where: { projectId: id, text: 'best crm' } })
      ).id;
      expect(events.rows.map((row) => row.payload)).toEqual([
        {
          signalId: expect.stringMatching(/^sig_/),
          kind: 'competitor_only_prompt',
          projectId: id,
          scanId: expect.stringMatching(/^scn_/),
          date: '2026-10-02',
          model: 'chatgpt',
          locale: 'en-US',
          metric: 'competitorsNamed',
          promptId,
          prompt: 'best crm',
          competitors: ['Globex'],
          before: 0,
          after: 1,
          brandBefore: 1,
          brandAfter: 0,
          threshold: 1,
          previousScanId: expect.stringMatching(/^scn_/),
        },
      ]);
    },
  );

  it(
    "owned_citation_share_drop fires when fewer of the runs' citations point at the project's own " +
      'domains, with signal.created in the outbox',
    async () => {
      const { id, citingScan } = await project();
      await t.database.prisma.aiProject.update({ where: { id }, data: { domains: ['acme.com'] } });
      // 2 of 4 owned (50 %) → 1 of 4 (25 %): 25 points; → 1 of 5 (20 %): 5 points, below the default 10.
      await ingest([
        citingScan(
          '2026-10-01',
          'https://www.acme.com/a',
          'https://blog.acme.com/b',
          'https://reddit.com/x',
          'https://g2.com/y',
        ),
        citingScan(
          '2026-10-02',
          'https://acme.com/',
          'https://reddit.com/x',
          'https://reddit.com/z',
          'https://g2.com/y',
        ),
      ]);
      await ingest([
        citingScan(
          '2026-10-03',
          'https://acme.com/',
          'https://reddit.com/x',
          'https://reddit.com/z',
          'https://g2.com/y',
          'https://g2.com/q',
        ),
      ]);
      const body = await graphql(SIGNALS, { id });
      expect(body.data.node.signals.nodes).toEqual([OWNED_SHARE_HALVED]);
      const events = await t.database.pool.query(
        "SELECT payload FROM webhook_events WHERE type = 'signal.created' AND payload->>'projectId' = $1",
        [id],
      );
      expect(events.rows.map((row) => [row.payload.kind, row.payload.date])).toEqual([
        ['owned_citation_share_drop', '2026-10-02'],
      ]);
    },
  );

  it(
    "owned_citation_share_drop counts the brand's domain in either spelling: a project saved with a " +
      'Unicode domain, its citations stored in ASCII',
    async () => {
      const { id, citingScan } = await project();
      // Written as a project saved before one spelling was chosen (the admin commands now store the ASCII one).
      await t.database.pool.query("UPDATE ai_projects SET domains = ARRAY['пример.рф'] WHERE id = $1", [id]);
      await ingest([
        citingScan(
          '2026-10-01',
          'https://пример.рф/a',
          'https://www.xn--e1afmkfd.xn--p1ai/b',
          'https://reddit.com/x',
          'https://g2.com/y',
        ),
        citingScan(
          '2026-10-02',
          'https://пример.рф/',
          'https://reddit.com/x',
          'https://reddit.com/z',
          'https://g2.com/y',
        ),
      ]);
      const body = await graphql(SIGNALS, { id });
      expect(body.data.node.signals.nodes).toEqual([OWNED_SHARE_HALVED]);
    },
  );

  it(
    'compare each scan with the previous scan of the same model and locale, even within one file and ' + 'out of order',
    async () => {
      const { id, scan } = await project();
      await ingest([
        scan('2026-10-03', { visibilityCount: 20, positionedCount: 20, positionSum: 40 }),
        scan('2026-10-01'),
        // Another locale and another model are other series: no drop against en-US/chatgpt.
        scan('2026-10-02', { locale: 'de-DE', visibilityCount: 5, positionedCount: 5, positionSum: 10 }),
        scan('2026-10-02', { model: 'gemini', visibilityCount: 5, positionedCount: 5, positionSum: 10 }),
      ]);
      const body = await graphql(SIGNALS, { id });
      expect(body.errors).toBeUndefined();
      expect(body.data.node.signals.nodes).toEqual([
        {
          kind: 'visibility_drop',
          model: 'chatgpt',
          locale: 'en-US',
          scanId: expect.stringMatching(/^scn_/),
          details: {
            metric: 'visibility',
            before: 0.5,
            after: 0.2,
            threshold: 10,
            previousScanId: expect.stringMatching(/^scn_/),
          },
        },
      ]);
    },
  );

  it("use the project's thresholds and switches, shown in the graph beside the defaults", async () => {
    const { id, scan } = await project();
    await setRule(t.database.prisma, {
      projectId: id,
      kind: 'visibility_drop',
      threshold: 40,
      enabled: true,
      actor: OPERATOR,
    });
    await setRule(t.database.prisma, {
      projectId: id,
      kind: 'sentiment_negative',
      threshold: 0,
      enabled: false,
      actor: OPERATOR,
    });
    await ingest([
      scan('2026-10-01'),
      scan('2026-10-02', {
        visibilityCount: 20,
        positionedCount: 20,
        positionSum: 40,
        positiveCount: 5,
        negativeCount: 25,
      }),
    ]);
    let body = await graphql(SIGNALS, { id });
    expect(body.data.node.signals.nodes).toEqual([]);
    expect(body.data.node.signalRules).toEqual([
      { kind: 'visibility_drop', threshold: 40, enabled: true, defaultThreshold: 10 },
      { kind: 'share_of_voice_overtaken', threshold: 0, enabled: true, defaultThreshold: 0 },
      { kind: 'average_position_worse', threshold: 1, enabled: true, defaultThreshold: 1 },
      { kind: 'sentiment_negative', threshold: 0, enabled: false, defaultThreshold: 0 },
      { kind: 'owned_citation_share_drop', threshold: 10, enabled: true, defaultThreshold: 10 },
      { kind: 'competitor_only_prompt', threshold: 1, enabled: true, defaultThreshold: 1 },
    ]);
    await ingest([scan('2026-10-03', { visibilityCount: 5, positionedCount: 5, positionSum: 20 })]);
    body = await graphql(SIGNALS, { id });
    expect(body.data.node.signals.nodes.map((signal: { kind: string }) => signal.kind).sort()).toEqual([
      'average_position_worse',
    ]);
  });

  it('share_of_voice_overtaken names the competitor and both shares', async () => {
    const { id, scan } = await project();
    const response = await ingest([
      scan('2026-10-01', {
        competitors: [{ name: 'Globex', visibilityCount: 30, mentionCount: 30, positionedCount: 0, positionSum: 0 }],
      }),
      scan('2026-10-02', {
        mentionCount: 30,
        positiveCount: 10,
        competitors: [{ name: 'Globex', visibilityCount: 45, mentionCount: 45, positionedCount: 0, positionSum: 0 }],
      }),
    ]);
    expect(response.data).toMatchObject({ accepted: 2 });
    const body = await graphql(SIGNALS, { id });
    expect(body.data.node.signals.nodes).toEqual([
      expect.objectContaining({
        kind: 'share_of_voice_overtaken',
        details: expect.objectContaining({
          competitor: 'Globex',
          before: 0.3,
          after: 0.45,
          brandBefore: 0.4,
          brandAfter: 0.3,
        }),
      }),
    ]);
  });
});

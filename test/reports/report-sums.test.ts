// A report's sums are exact: every fact counts in whole millionths, so a total is the decimal sum
// of its facts whatever order the database reads them in, and no stored fact can make the sums fail.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { addDays } from '../../src/dates/civil-date.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';
import { ingestMetricFacts } from '../support/ingest.js';

const TOKEN = 's'.repeat(40);
// A Wednesday: last_14_days is 2026-11-04 (a Wednesday) through 2026-11-17, in three Monday weeks.
const NOW = new Date('2026-11-18T12:00:00.000Z');
const FROM = '2026-11-04';
let t: TestApp;
let key: string;
let clientId: string;
let workspaceId: string;

const fact = (day: number, metrics: Record<string, number>, client = clientId) => ({
  client,
  provider: 'google_ads',
  date: addDays(FROM, day),
  metrics,
});

const newClient = async () =>
  (await t.database.prisma.client.create({ data: { id: newId('client'), workspaceId, name: 'Exact Sums Ltd' } })).id;

/** The data of a report over the last 14 days: its cost and clicks, and its weekly cost. */
async function reportOf(client: string) {
  const report = await t.database.prisma.report.create({
    data: {
      id: newId('report'),
      workspaceId,
      clientId: client,
      name: 'Sums',
      definition: {
        widgets: [
          { id: 'k', type: 'kpi', title: 'Spend', provider: 'google_ads', metrics: ['cost', 'clicks'] },
          {
            id: 'c',
            type: 'line_chart',
            title: 'Weekly',
            provider: 'google_ads',
            metrics: ['cost'],
            granularity: 'week',
          },
        ],
        dateConfig: { datePreset: 'last_14_days', comparePreset: 'none', timezone: 'UTC' },
      },
    },
  });
  const { data } = await json(await t.get(`/api/v1/reports/${report.id}/data`, key));
  const kpi = (metric: string) => data.kpis.find((k: { metric: string }) => k.metric === metric).value;
  const weeks = data.charts[0].series[0].points.map((point: { value: number }) => point.value);
  return { cost: kpi('cost'), clicks: kpi('clicks'), weeks };
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  t = await createTestApp({ INGEST_TOKEN: TOKEN });
  const keyed = await createKeyedWorkspace(t.database, { timezone: 'UTC' });
  key = keyed.key.secret;
  workspaceId = keyed.workspace.id;
  clientId = await newClient();
});
afterAll(async () => {
  await t.close();
  vi.useRealTimers();
});

describe('report sums', () => {
  it('are the exact decimal sum of the facts, not a float sum in the order they were read', async () => {
    // Summed as doubles in either order, fourteen facts of 0.1 make 1.4000000000000001.
    const facts = Array.from({ length: 14 }, (_, day) => fact(day, { cost: 0.1, clicks: 1 }));
    expect((await ingestMetricFacts(t.app, TOKEN, facts)).data).toMatchObject({ accepted: 14, rejected: 0 });
    expect(await reportOf(clientId)).toEqual({ cost: 1.4, clicks: 14, weeks: [0.5, 0.7, 0.2] });
  });

  it('stay exact in the largest totals facts can make', async () => {
    // 1e12 + 13 × 0.1 is 1 000 000 000 001 300 000 millionths, past 2^53: a double of the millionths is not exact.
    const client = await newClient();
    const facts = Array.from({ length: 14 }, (_, day) => fact(day, { cost: day === 3 ? 1e12 : 0.1 }, client));
    expect((await ingestMetricFacts(t.app, TOKEN, facts)).data).toMatchObject({ accepted: 14 });
    const { cost, weeks } = await reportOf(client);
    expect(cost).toBe(1000000000001.3);
    expect(weeks).toEqual([1000000000000.4, 0.7, 0.2]);
  });

  it('count a fact to the millionth', async () => {
    const client = await newClient();
    await ingestMetricFacts(t.app, TOKEN, [fact(0, { cost: 1.0000004 }, client), fact(1, { cost: 2.0000004 }, client)]);
    expect((await reportOf(client)).cost).toBe(3);
  });
});

describe('a fact too large to sum', () => {
  it('is refused at ingest, naming its line; the largest allowed is summed', async () => {
    const body = [fact(2, { cost: 1e12 }, await newClient()), fact(3, { cost: 1e12 + 1 })];
    const refused = await ingestMetricFacts(t.app, TOKEN, body);
    expect(refused.error).toMatchObject({ code: 'invalid_body' });
    expect(refused.error.lines).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringContaining('1e12') }),
    ]);
    expect((await ingestMetricFacts(t.app, TOKEN, body.slice(0, 1))).data).toMatchObject({ accepted: 1 });
  });

  it('is refused by the database whatever writes it', async () => {
    const insert = t.database.pool.query(
      `INSERT INTO metric_facts (client_id, provider, date, cost) VALUES ($1, 'google_ads', '2025-01-01', 2e12)`,
      [clientId],
    );
    await expect(insert).rejects.toThrow(/metric_facts_values_in_range/);
  });
});

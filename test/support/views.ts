// The workspace both views browser tests read: an owner signed in, 40 days of demo data on one
// client, and the ids of its first report and AI-visibility project as v1 lists them.
import { seedWorkspace } from '../../src/demo/seed.js';
import { catalog, type ProviderId } from '../../src/reports/index.js';
import { createKeyedWorkspace, json, type TestApp } from './app.js';
import { personWithPassword, signIn } from './web.js';

/** A v1 GET with an API key, its JSON body. */
export const v1Get = async (baseUrl: string, route: string, key: string) =>
  json(await fetch(`${baseUrl}/api/v1${route}`, { headers: { authorization: `Bearer ${key}` } }));

export async function seededViewsWorkspace(served: { t: TestApp; baseUrl: string }) {
  const keyed = await createKeyedWorkspace(served.t.database);
  await seedWorkspace(served.t.database.prisma, served.t.database.pool, {
    workspaceId: keyed.workspace.id,
    days: 40,
    clients: 1,
  });
  await personWithPassword(served.t.database, { email: keyed.ownerEmail });
  const { cookie, csrf } = await signIn(served.t.app, keyed.ownerEmail);
  const reportId: string = (await v1Get(served.baseUrl, '/reports', keyed.key.secret)).data[0].id;
  const projectId: string = (await v1Get(served.baseUrl, '/ai-visibility/projects', keyed.key.secret)).data[0].id;
  return { workspaceId: keyed.workspace.id, apiKey: keyed.key.secret, cookie, csrf, reportId, projectId };
}

/** How the views write numbers for an en-US person: what the tests expect on screen. */
export const en = {
  number: new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }),
  percent: new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  decimal: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
};

/**
 * A metric's figure as every view writes it for an en-US person, by the catalogue's unit: money with its two
 * decimals (and its currency's sign when the data name one), a rate (0..1) as a percentage to one decimal,
 * another decimal to two, always; a count as v1 gives it, whole or to two places at most (restated here, not
 * imported, so that a change to the views' rule shows).
 */
const fixed = (digits: number, style: 'decimal' | 'percent' = 'decimal') =>
  new Intl.NumberFormat('en-US', { style, minimumFractionDigits: digits, maximumFractionDigits: digits });
const PLACES_2 = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
const BY_UNIT: Record<string, Intl.NumberFormat> = {
  count: en.number,
  currency: fixed(2),
  percent: fixed(1, 'percent'),
  decimal: fixed(2),
};
export const figure = (provider: string, metric: string, value: number | null, currency: string | null = null) => {
  if (value === null) return '–';
  const { unit } = catalog[provider as ProviderId].metrics[metric]!;
  // Money names the report's currency when it has one ("£1,234.50").
  if (unit === 'currency' && currency)
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, ...PLACES_2 }).format(value);
  return BY_UNIT[unit]!.format(value);
};

/** The report's KPI values as its view writes them for an en-US person. */
export function kpiTexts(
  widgets: { id: string; provider: string }[],
  kpis: { widgetId: string; metric: string; value: number | null }[],
  currency: string | null,
): string[] {
  return kpis.map((kpi) =>
    figure(widgets.find((widget) => widget.id === kpi.widgetId)!.provider, kpi.metric, kpi.value, currency),
  );
}

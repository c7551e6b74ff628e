// The MCP write tools, one case each: every case makes what it changes itself, so any one runs
// alone (`npx vitest run test/mcp/write-tools.test.ts -t archive_report`) and in any order. Each
// runs the same domain code as Settings and the CLI (validated alike), answers structuredContent
// that is its text block's JSON, refuses another workspace's ids, and is audited with the OAuth
// client's name. The switch that hides them is tested first and left on.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WRITE_TOOLS } from '../../src/mcp/tools/write-tools.js';
import { SIGNAL_KINDS } from '../../src/signals/index.js';
import { json } from '../support/app.js';
import { cliEnv, runInProcess } from '../support/cli.js';
import { seededWorkspaces, type Keyed } from './seeded-workspaces.js';
import { useListeningApp } from '../support/listen.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { call, personWithPassword, signIn } from '../support/web.js';

const served = useListeningApp();
let mine: Keyed;
let theirs: Keyed;
let admin: { cookie: string; csrf: string };
let client: Client;
/** Seeded in beforeAll and never changed by a case: the client and project the cases build on. */
let seeded: { client: string; project: string; theirClient: string };

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
}
const callTool = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;
/** A tool's answer that must succeed: its structuredContent, which is also its one text block. */
async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await callTool(name, args);
  expect(result.isError, `${name}: ${result.content[0]?.text?.slice(0, 300)}`).toBeFalsy();
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  return result.structuredContent!;
}
/** A tool's answer that must fail: its error code and message. */
async function refused(name: string, args: Record<string, unknown>) {
  const result = await callTool(name, args);
  expect(result.isError, name).toBe(true);
  return JSON.parse(result.content[0]!.text!).error as { code: string; message: string };
}
const v1 = async (path: string) => served.t.get(path, mine.key.secret);
const setWrites = async (on: boolean) =>
  expect((await call(served.t.app, admin, 'POST', '/app/settings/mcp', { writeActions: on })).status).toBe(200);

/** The audit entries written since `since` in this workspace: action → the client named. */
async function auditedSince(since: Date) {
  const entries = await served.t.database.prisma.auditLogEntry.findMany({
    where: { workspaceId: mine.workspace.id, createdAt: { gte: since } },
  });
  return entries.map((entry) => [entry.action, (entry.details as { via?: string }).via]);
}
/** Runs `body`, then expects `action` among the audit entries it wrote, with the client's name. */
async function audited(action: string, body: () => Promise<void>) {
  const since = new Date(Date.now() - 1);
  await body();
  expect(await auditedSince(since)).toContainEqual([action, 'Test MCP client']);
}

const DEFINITION = {
  widgets: [{ id: 'clicks', type: 'kpi', title: 'Clicks', provider: 'google_ads', metrics: ['clicks'] }],
  dateConfig: { datePreset: 'last_30_days', comparePreset: 'previous_period' },
};
const CTR = { id: 'ctr', type: 'kpi', title: 'CTR', provider: 'google_ads', metrics: ['ctr'] };
const widgetIds = (report: { definition: { widgets: { id: string }[] } }) => report.definition.widgets.map((w) => w.id);
let made = 0;
const unique = (text: string) => `${text} ${++made}-${Math.random().toString(36).slice(2, 6)}`;

const newClient = async () => (await ok('create_client', { name: unique('Client') })).client;
const newReport = async () =>
  (await ok('create_report', { name: unique('Report'), clientId: seeded.client, definition: DEFINITION })).report;
const newProject = async () =>
  (
    await ok('create_ai_visibility_project', {
      name: unique('Project'),
      brand: 'Acme',
      models: ['chatgpt'],
      locales: ['en-US'],
      competitors: ['Globex'],
    })
  ).project;
const newPrompt = async () =>
  (await ok('add_prompts', { projectId: seeded.project, texts: [unique('Which CRM?')] })).added[0];
const newEndpoint = async () =>
  (
    await ok('create_webhook_endpoint', {
      url: 'https://hooks.example.com/signalboard',
      eventTypes: ['signal.created'],
    })
  ).endpoint;
const theirFirst = async (table: 'report' | 'aiProject' | 'aiPrompt' | 'webhookEndpoint') =>
  (await (served.t.database.prisma[table] as any).findFirstOrThrow({ where: { workspaceId: theirs.workspace.id } }))
    .id as string;

beforeAll(async () => {
  const db = served.t.database;
  ({ mine, theirs } = await seededWorkspaces(db));
  await db.prisma.webhookEndpoint.create({
    data: {
      id: 'whe_0000000000000000000W',
      workspaceId: theirs.workspace.id,
      url: 'https://x.example',
      eventTypes: ['scan.completed'],
      secret: 'v1:a:b:c',
    },
  });
  const first = async (table: 'client' | 'aiProject', workspaceId: string) =>
    (await (db.prisma[table] as any).findFirstOrThrow({ where: { workspaceId } })).id as string;
  seeded = {
    client: await first('client', mine.workspace.id),
    project: await first('aiProject', mine.workspace.id),
    theirClient: await first('client', theirs.workspace.id),
  };
  await personWithPassword(db, { email: mine.ownerEmail });
  admin = await signIn(served.t.app, mine.ownerEmail);
  const provider = new TestOAuthProvider({ cookie: admin.cookie, workspaceId: mine.workspace.id });
  client = await connectMcp(served.baseUrl, provider, '/mcp/x/all');
  await setWrites(true);
}, 90_000);
afterAll(async () => {
  await client?.close();
});

describe('the write switch', () => {
  it('hides and refuses every write tool while off; lists them with their result keys while on', async () => {
    await setWrites(false);
    try {
      expect((await client.listTools()).tools.filter((t) => WRITE_TOOLS.some((w) => w.name === t.name))).toEqual([]);
      const error = await refused('create_client', { name: 'x' });
      expect(error.code).toBe('forbidden');
      expect(error.message).toContain('write actions are switched off for this workspace: ask an admin');
    } finally {
      await setWrites(true);
    }
    const listed = (await client.listTools()).tools.filter((t) => WRITE_TOOLS.some((w) => w.name === t.name));
    expect(listed.map((t) => t.name).sort()).toEqual(WRITE_TOOLS.map((w) => w.name).sort());
    expect(listed.filter((t) => t.outputSchema?.type !== 'object').map((t) => t.name)).toEqual([]);
  });
});

describe('clients', () => {
  it('create_client adds a client v1 lists', async () => {
    await audited('client.created', async () => {
      const created = await newClient();
      expect(created.name).toMatch(/^Client /);
      expect((await json(await v1('/api/v1/clients'))).data.map((c: any) => c.id)).toContain(created.id);
    });
  });

  it('update_client renames it', async () => {
    const created = await newClient();
    await audited('client.updated', async () => {
      expect((await ok('update_client', { id: created.id, name: 'Renamed Ltd' })).client.name).toBe('Renamed Ltd');
    });
  });

  it('archive_client hides it from v1, keeps its reports, refuses new ones; another’s is not found', async () => {
    const created = await newClient();
    const report = (await ok('create_report', { name: 'Client report', clientId: created.id, definition: DEFINITION }))
      .report;
    await audited('client.archived', async () => {
      expect((await ok('archive_client', { id: created.id })).client.archivedAt).not.toBeNull();
    });
    expect((await json(await v1('/api/v1/clients'))).data.map((c: any) => c.id)).not.toContain(created.id);
    expect((await v1(`/api/v1/reports/${report.id}`)).status).toBe(200);
    expect((await refused('create_report', { name: 'x', clientId: created.id, definition: DEFINITION })).code).toBe(
      'not_found',
    );
    expect((await refused('archive_client', { id: seeded.theirClient })).code).toBe('not_found');
  });
});

describe('reports', () => {
  it('create_report makes a report v1 reads', async () => {
    await audited('report.created', async () => {
      const report = await newReport();
      expect((await json(await v1(`/api/v1/reports/${report.id}`))).data.name).toBe(report.name);
    });
  });

  it('update_report renames it', async () => {
    const report = await newReport();
    await audited('report.updated', async () => {
      expect((await ok('update_report', { id: report.id, name: 'Renamed report' })).report.name).toBe('Renamed report');
    });
  });

  it('update_report takes back the definition v1 shows, nulls and all', async () => {
    const report = await newReport();
    const { definition } = (await json(await v1(`/api/v1/reports/${report.id}`))).data;
    expect(definition.widgets[0]).toHaveProperty('dimension', null);
    const updated = (await ok('update_report', { id: report.id, definition })).report;
    expect((await json(await v1(`/api/v1/reports/${updated.id}`))).data.definition).toEqual(definition);
    expect((await ok('update_report_widgets', { id: report.id, widgets: definition.widgets })).report.id).toBe(
      report.id,
    );
  });

  it('update_report_widgets replaces the widgets, validated as the CLI validates them', async () => {
    const report = await newReport();
    const error = await refused('update_report_widgets', {
      id: report.id,
      widgets: [{ id: 'x', type: 'kpi', title: 'X', provider: 'google_ads', metrics: ['sessions'] }],
    });
    expect(error).toMatchObject({
      code: 'invalid_parameter',
      message: expect.stringContaining('google_ads has no metric "sessions"'),
    });
    await audited('report.updated', async () => {
      expect(widgetIds((await ok('update_report_widgets', { id: report.id, widgets: [CTR] })).report)).toEqual(['ctr']);
    });
  });

  it('add_widget puts a widget at its position, validated', async () => {
    const report = await newReport();
    await audited('report.updated', async () => {
      const added = await ok('add_widget', { id: report.id, widget: CTR, position: 0 });
      expect(widgetIds(added.report)).toEqual(['ctr', 'clicks']);
    });
    const bad = { ...CTR, id: 'bad', metrics: ['sessions'] };
    expect((await refused('add_widget', { id: report.id, widget: bad })).code).toBe('invalid_parameter');
  });

  it('remove_widget takes one out; an unknown widget is not found', async () => {
    const report = await newReport();
    await ok('add_widget', { id: report.id, widget: CTR, position: 0 });
    await audited('report.updated', async () => {
      expect(widgetIds((await ok('remove_widget', { id: report.id, widgetId: 'clicks' })).report)).toEqual(['ctr']);
    });
    expect((await refused('remove_widget', { id: report.id, widgetId: 'nope' })).code).toBe('not_found');
  });

  it('duplicate_report copies name, client and widgets', async () => {
    const report = await newReport();
    await audited('report.created', async () => {
      const copy = (await ok('duplicate_report', { id: report.id })).report;
      expect(copy).toMatchObject({ name: `${report.name} (copy)`, clientId: report.clientId });
      expect(copy.id).not.toBe(report.id);
      expect(widgetIds(copy)).toEqual(['clicks']);
    });
  });

  it('archive_report makes it 404 on v1; another workspace’s is not found', async () => {
    const report = await newReport();
    await audited('report.archived', async () => {
      await ok('archive_report', { id: report.id });
    });
    expect((await v1(`/api/v1/reports/${report.id}`)).status).toBe(404);
    expect((await refused('archive_report', { id: await theirFirst('report') })).code).toBe('not_found');
  });
});

describe('AI visibility', () => {
  it('create_ai_visibility_project makes a project; a bad locale is refused', async () => {
    await audited('ai_project.created', async () => {
      expect(await newProject()).toMatchObject({ brand: 'Acme', models: ['chatgpt'], locales: ['en-US'] });
    });
    const bad = { name: 'x', brand: 'y', models: ['chatgpt'], locales: ['not a locale'] };
    expect((await refused('create_ai_visibility_project', bad)).code).toBe('invalid_parameter');
  });

  it('update_ai_visibility_project changes the brand', async () => {
    const created = await newProject();
    await audited('ai_project.updated', async () => {
      const updated = await ok('update_ai_visibility_project', { id: created.id, brand: 'Acme Inc' });
      expect(updated.project.brand).toBe('Acme Inc');
    });
  });

  it('set_project_domains normalises the domains; a bad one is refused', async () => {
    const created = await newProject();
    await audited('ai_project.domains_set', async () => {
      const set = await ok('set_project_domains', {
        projectId: created.id,
        domains: ['https://www.Acme.co.uk/'],
        competitorDomains: [{ name: 'Globex', domains: ['rival.example'] }],
      });
      expect(set.project).toMatchObject({
        domains: ['acme.co.uk'],
        competitorDomains: [{ name: 'Globex', domains: ['rival.example'] }],
      });
    });
    const bad = { projectId: created.id, domains: ['not a domain'] };
    expect((await refused('set_project_domains', bad)).code).toBe('invalid_parameter');
  });

  it('archive_ai_visibility_project makes its metrics 404; archived twice is not found', async () => {
    const created = await newProject();
    await audited('ai_project.archived', async () => {
      expect((await ok('archive_ai_visibility_project', { id: created.id })).project.archivedAt).not.toBeNull();
    });
    expect((await v1(`/api/v1/ai-visibility/projects/${created.id}/metrics`)).status).toBe(404);
    expect((await refused('archive_ai_visibility_project', { id: created.id })).code).toBe('not_found');
  });
});

describe('prompts', () => {
  it('add_prompts adds new texts and reports the ones already tracked', async () => {
    const tracked = (await served.t.database.prisma.aiPrompt.findFirstOrThrow({ where: { projectId: seeded.project } }))
      .text;
    const text = unique('Which CRM do agencies use?');
    await audited('ai_prompt.added', async () => {
      const added = await ok('add_prompts', {
        projectId: seeded.project,
        texts: [text, tracked],
        topic: 'mcp',
        tags: ['x'],
      });
      expect(added.added.map((p: any) => p.text)).toEqual([text]);
      expect(added.existing.map((p: any) => p.text)).toEqual([tracked]);
    });
  });

  it('update_prompts sets tags and keeps the topic', async () => {
    const prompt = (await ok('add_prompts', { projectId: seeded.project, texts: [unique('Best CRM?')], topic: 'mcp' }))
      .added[0];
    await audited('ai_prompt.updated', async () => {
      const updated = await ok('update_prompts', { promptIds: [prompt.id], tags: ['a', 'b'] });
      expect(updated.prompts[0]).toMatchObject({ topic: 'mcp', tags: ['a', 'b'] });
    });
  });

  it('archive_prompts stops tracking; another workspace’s prompt is not found', async () => {
    const prompt = await newPrompt();
    await audited('ai_prompt.archived', async () => {
      expect((await ok('archive_prompts', { promptIds: [prompt.id] })).prompts[0].archivedAt).not.toBeNull();
    });
    expect((await refused('archive_prompts', { promptIds: [await theirFirst('aiPrompt')] })).code).toBe('not_found');
  });

  it('restore_prompts tracks an archived prompt again', async () => {
    const prompt = await newPrompt();
    await ok('archive_prompts', { promptIds: [prompt.id] });
    await audited('ai_prompt.restored', async () => {
      expect((await ok('restore_prompts', { promptIds: [prompt.id] })).prompts[0].archivedAt).toBeNull();
    });
  });
});

describe('signals', () => {
  it('set_signal_rule sets a threshold, enabled by default', async () => {
    await audited('signal_rule.set', async () => {
      const set = await ok('set_signal_rule', { projectId: seeded.project, kind: 'visibility_drop', threshold: 15 });
      expect(set.rule).toMatchObject({ kind: 'visibility_drop', threshold: 15, enabled: true });
    });
  });

  it('acknowledge_signal marks it seen, idempotently, as get_signal shows', async () => {
    const signal = await served.t.database.prisma.signal.findFirstOrThrow({
      where: { workspaceId: mine.workspace.id, acknowledgedAt: null },
    });
    let acknowledgedAt: string | undefined;
    await audited('signal.acknowledged', async () => {
      acknowledgedAt = (await ok('acknowledge_signal', { id: signal.id })).signal.acknowledgedAt;
    });
    expect(acknowledgedAt).toBeTruthy();
    expect((await ok('acknowledge_signal', { id: signal.id })).signal.acknowledgedAt).toBe(acknowledgedAt);
    expect((await ok('get_signal', { id: signal.id })).node.acknowledgedAt).toBe(acknowledgedAt);
  });
});

describe('webhooks', () => {
  it('create_webhook_endpoint never shows the signing secret to the model', async () => {
    await audited('webhook_endpoint.created', async () => {
      const result = await callTool('create_webhook_endpoint', {
        url: 'https://hooks.example.com/signalboard',
        eventTypes: ['signal.created'],
      });
      expect(result.structuredContent!.endpoint).toMatchObject({ url: 'https://hooks.example.com/signalboard' });
      expect(JSON.stringify(result)).not.toMatch(/whsec_/);
    });
  });

  it('update_webhook_endpoint disables it; a disabled endpoint takes no test; another’s is not found', async () => {
    const endpoint = await newEndpoint();
    await audited('webhook_endpoint.disabled', async () => {
      expect((await ok('update_webhook_endpoint', { id: endpoint.id, enabled: false })).endpoint.enabled).toBe(false);
    });
    expect((await refused('send_test_event', { id: endpoint.id })).code).toBe('conflict');
    const theirs = { id: await theirFirst('webhookEndpoint'), enabled: false };
    expect((await refused('update_webhook_endpoint', theirs)).code).toBe('not_found');
  });

  it('send_test_event queues one delivery to that endpoint', async () => {
    const endpoint = await newEndpoint();
    let eventId = '';
    await audited('webhook_endpoint.test_sent', async () => {
      const test = (await ok('send_test_event', { id: endpoint.id })).test;
      expect(test).toMatchObject({ endpointId: endpoint.id, type: 'signal.created' });
      eventId = test.eventId;
    });
    const deliveries = await served.t.database.pool.query(
      'SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1',
      [eventId],
    );
    expect(deliveries.rows).toEqual([{ endpoint_id: endpoint.id }]);
  });

  it('replay_webhook_event sends an event to an endpoint again', async () => {
    const endpoint = await newEndpoint();
    const { eventId } = (await ok('send_test_event', { id: endpoint.id })).test;
    await audited('webhook_event.replayed', async () => {
      const replayed = await ok('replay_webhook_event', { eventId, endpointId: endpoint.id });
      expect(replayed.replay).toMatchObject({ eventId });
    });
  });

  it('replay_failed_webhooks sends the failed deliveries since a time again', async () => {
    const since = new Date().toISOString();
    const endpoint = await newEndpoint();
    const { eventId } = (await ok('send_test_event', { id: endpoint.id })).test;
    await served.t.database.pool.query(
      "UPDATE webhook_deliveries SET status = 'failed', finished_at = now() WHERE event_id = $1",
      [eventId],
    );
    await audited('webhook_deliveries.replayed', async () => {
      expect((await ok('replay_failed_webhooks', { since })).replay).toEqual({ replayed: 1 });
    });
  });
});

/**
 * The same bad input through settings JSON, the CLI and the MCP tool: each door parses with the
 * command's one input shape, so each refuses it with the same field named in the same words.
 */
interface Doors {
  settings?: [path: string, body: Record<string, unknown>];
  cli?: string[];
  mcp?: [tool: string, args: Record<string, unknown>];
}
async function refusedAlike(doors: Doors, param: string, words: string) {
  const message = `${param}: ${words}.`;
  if (doors.settings) {
    const viaSettings = await call(served.t.app, admin, 'POST', ...doors.settings);
    expect([viaSettings.status, (await json(viaSettings)).error]).toMatchObject([
      400,
      { code: 'invalid_parameter', param, message },
    ]);
  }
  if (doors.cli) {
    const viaCli = await runInProcess(cliEnv(served.t.url), doors.cli);
    expect([viaCli.code, viaCli.stderr]).toEqual([2, `error: ${message}\n`]);
  }
  if (doors.mcp) expect(await refused(...doors.mcp)).toMatchObject({ code: 'invalid_parameter', param, message });
}
const long = (characters: number) => 'x'.repeat(characters);

describe('the doors refuse bad input alike', () => {
  it('webhook create: a description past 500 characters', async () => {
    const url = 'https://hooks.example.com/alike';
    await refusedAlike(
      {
        settings: ['/app/settings/webhooks', { url, description: long(501) }],
        cli: ['webhooks', 'create', '--workspace', mine.workspace.slug, '--url', url, '--description', long(501)],
        mcp: ['create_webhook_endpoint', { url, description: long(501) }],
      },
      'description',
      'a description is at most 500 characters',
    );
  });

  it('webhook replay-failed: a since that is no time', async () => {
    await refusedAlike(
      {
        settings: ['/app/settings/webhooks/replay-failed', { since: 'yesterday' }],
        cli: ['webhooks', 'replay-failed', '--workspace', mine.workspace.slug, '--since', 'yesterday'],
        mcp: ['replay_failed_webhooks', { since: 'yesterday' }],
      },
      'since',
      'an ISO 8601 date or time, e.g. 2026-11-20T00:00:00Z',
    );
  });

  it('prompts add: a topic past 100 characters, and no text at all', async () => {
    const project = seeded.project;
    await refusedAlike(
      {
        settings: [`/app/settings/projects/${project}/prompts`, { texts: ['Which CRM?'], topic: long(101) }],
        cli: ['prompts', 'add', '--project', project, '--text', 'Which CRM?', '--topic', long(101)],
        mcp: ['add_prompts', { projectId: project, texts: ['Which CRM?'], topic: long(101) }],
      },
      'topic',
      'a topic has at most 100 characters',
    );
    await refusedAlike(
      {
        settings: [`/app/settings/projects/${project}/prompts`, { texts: [] }],
        mcp: ['add_prompts', { projectId: project, texts: [] }],
      },
      'texts',
      'give at least one prompt',
    );
  });

  it('prompts update and archive: a tag past 50 characters, no prompt ids', async () => {
    const prompt = (await newPrompt()).id as string;
    await refusedAlike(
      {
        settings: ['/app/settings/prompts/update', { promptIds: [prompt], tags: ['ok', long(51)] }],
        cli: ['prompts', 'tag', prompt, '--tags', `ok,${long(51)}`],
        mcp: ['update_prompts', { promptIds: [prompt], tags: ['ok', long(51)] }],
      },
      'tags.1',
      'a tag has at most 50 characters',
    );
    // The CLI takes ids as arguments, one at least (commander refuses none before the command runs).
    await refusedAlike(
      { settings: ['/app/settings/prompts/archive', { promptIds: [] }], mcp: ['archive_prompts', { promptIds: [] }] },
      'promptIds',
      'give at least one prompt id',
    );
  });
  it('signal rule: an unknown kind', async () => {
    const project = seeded.project;
    await refusedAlike(
      {
        cli: ['signals', 'set-rule', '--project', project, '--kind', 'mood_swing', '--threshold', '1'],
        mcp: ['set_signal_rule', { projectId: project, kind: 'mood_swing', threshold: 1 }],
      },
      'kind',
      `a kind is one of ${SIGNAL_KINDS.join(', ')}`,
    );
  });

  it('report create: a widget of no known type, a widget with a key no widget has', async () => {
    const file = path.join(tmpdir(), `alike-report-${process.pid}.json`);
    const refusedWith = async (widget: Record<string, unknown>, param: string, words: string) => {
      const definition = { ...DEFINITION, widgets: [{ ...DEFINITION.widgets[0], ...widget }] };
      writeFileSync(file, JSON.stringify(definition));
      await refusedAlike(
        {
          cli: ['reports', 'create', '--workspace', mine.workspace.slug, '--name', 'Pie', '--file', file],
          mcp: ['create_report', { name: 'Pie', definition }],
        },
        param,
        words,
      );
    };
    try {
      await refusedWith(
        { type: 'pie' },
        'definition.widgets.0.type',
        'Invalid option: expected one of "kpi"|"line_chart"|"bar_chart"|"table"',
      );
      await refusedWith({ colour: 'red' }, 'definition.widgets.0', 'Unrecognized key: "colour"');
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('api key create: a name past 100 characters, an expiry that is no date', async () => {
    const slug = mine.workspace.slug;
    await refusedAlike(
      {
        settings: ['/app/settings/api-keys', { name: long(101) }],
        cli: ['keys', 'create', '--workspace', slug, '--name', long(101)],
      },
      'name',
      'a key needs a name of 1-100 characters',
    );
    await refusedAlike(
      {
        settings: ['/app/settings/api-keys', { name: 'CI', expiresAt: 'tomorrow' }],
        cli: ['keys', 'create', '--workspace', slug, '--name', 'CI', '--expires-at', 'tomorrow'],
      },
      'expiresAt',
      'expiry is an ISO 8601 date or date-time',
    );
  });
});

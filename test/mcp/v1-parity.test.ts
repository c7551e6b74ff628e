// MCP read tools that mirror a v1 endpoint return every field v1 returns: for the same inputs,
// the key paths of the tool's `data` equal those of v1's JSON. Which tools mirror v1 is read from
// their operations (the root field is a v1 route's field), so a new mirroring tool is held to it too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { graphqlFiles } from '../../src/graphql/operation-files.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { seedWorkspace } from '../../src/demo/seed.js';
import { REST_ROUTES } from '../../src/rest/routes.js';
import { MCP_OPERATIONS_DIR } from '../../src/mcp/tools/operation-tools.js';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';

/** Tools that read a v1 field for a purpose of their own and say less on purpose. */
const PROJECTIONS = new Set(['get_competitor_benchmark']);

const served = useListeningApp();
let client: Client;
let key: string;
const ids = { client: '', report: '', project: '', answer: '' };

beforeAll(async () => {
  const db = served.t.database;
  const keyed = await createKeyedWorkspace(db);
  key = keyed.key.secret;
  await seedWorkspace(db.prisma, db.pool, { workspaceId: keyed.workspace.id, days: 10, clients: 2 });
  ids.client = (
    await db.prisma.client.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id }, orderBy: { id: 'asc' } })
  ).id;
  ids.report = (
    await db.prisma.report.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id }, orderBy: { id: 'asc' } })
  ).id;
  ids.project = (
    await db.prisma.aiProject.findFirstOrThrow({ where: { workspaceId: keyed.workspace.id }, orderBy: { id: 'asc' } })
  ).id;
  ids.answer = (await db.prisma.aiAnswer.findFirstOrThrow({ where: { projectId: ids.project } })).id;
  await personWithPassword(db, { email: keyed.ownerEmail });
  const provider = new TestOAuthProvider({
    cookie: (await signIn(served.t.app, keyed.ownerEmail)).cookie,
    workspaceId: keyed.workspace.id,
  });
  client = await connectMcp(served.baseUrl, provider, '/mcp/x/all');
}, 60_000);
afterAll(async () => {
  await client?.close();
});

/** Every key path of a JSON value; an array contributes the paths of all its items. */
function keyPaths(value: unknown, prefix = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keyPaths(item, `${prefix}[]`, into);
  else if (value && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      into.add(`${prefix}.${name}`);
      keyPaths(inner, `${prefix}.${name}`, into);
    }
  }
  return into;
}

/** The tools whose operation's root field is a v1 route's field. */
function mirroringTools(): Map<string, string> {
  const v1Fields = new Set(REST_ROUTES.map((route) => route.field));
  const found = new Map<string, string>();
  for (const file of graphqlFiles(MCP_OPERATIONS_DIR)) {
    const operation = parse(readFileSync(file, 'utf8')).definitions.find(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    )!;
    const root = operation.selectionSet.selections[0]!;
    if (root.kind === Kind.FIELD && v1Fields.has(root.name.value))
      found.set(path.basename(file, '.graphql'), root.name.value);
  }
  return found;
}

describe('MCP read tools that mirror v1', () => {
  it('return every field of their v1 twin, no more and no less', async () => {
    const p = () => `/api/v1/ai-visibility/projects/${ids.project}`;
    const range = { dateFrom: '2026-01-01', dateTo: '2026-12-31' };
    const query = new URLSearchParams(range).toString();
    // The prompts list reads at most 60 days: the 60 ending today.
    const promptRange = { dateFrom: new Date(Date.now() - 59 * 86_400_000).toISOString().slice(0, 10) };
    const promptQuery = new URLSearchParams(promptRange).toString();
    const cases: Record<string, [Record<string, unknown>, string]> = {
      list_clients: [{}, '/api/v1/clients'],
      list_reports: [{ clientId: ids.client }, `/api/v1/reports?clientId=${ids.client}`],
      get_report: [{ id: ids.report }, `/api/v1/reports/${ids.report}`],
      get_report_data: [
        { id: ids.report, datePreset: 'last_7_days', comparePreset: 'previous_period' },
        `/api/v1/reports/${ids.report}/data?datePreset=last_7_days&comparePreset=previous_period`,
      ],
      list_ai_visibility_projects: [{}, '/api/v1/ai-visibility/projects'],
      get_ai_visibility_metrics: [{ id: ids.project, ...range }, `${p()}/metrics?${query}`],
      list_prompts: [{ id: ids.project, ...promptRange }, `${p()}/prompts?${promptQuery}`],
      list_answers: [{ id: ids.project, ...range, limit: 20 }, `${p()}/answers?${query}&limit=20`],
      get_answer: [{ id: ids.project, answerId: ids.answer }, `${p()}/answers/${ids.answer}`],
      get_cited_domains: [{ id: ids.project, ...range }, `${p()}/sources?${query}`],
      get_cited_urls: [{ id: ids.project, ...range }, `${p()}/sources?${query}&groupBy=url`],
    };
    const mirroring = mirroringTools();
    expect([...mirroring.keys()].filter((name) => !PROJECTIONS.has(name)).sort()).toEqual(Object.keys(cases).sort());
    for (const [name, [args, path]] of Object.entries(cases)) {
      const result = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: Record<string, any>;
        content: { text?: string }[];
      };
      expect(result.isError, `${name}: ${result.content[0]?.text?.slice(0, 200)}`).toBeFalsy();
      const response = await served.t.get(path, key);
      expect(response.status, path).toBe(200);
      const v1 = await json(response);
      const mcp = result.structuredContent![mirroring.get(name)!];
      expect(keyPaths(mcp.data).size, name).toBeGreaterThan(0);
      expect.soft([...keyPaths(mcp.data)].sort(), name).toEqual([...keyPaths(v1.data)].sort());
      if (v1.meta && Object.keys(v1.meta).length)
        expect(Object.keys(mcp.meta).sort(), `${name} meta`).toEqual(Object.keys(v1.meta).sort());
    }
  });
});

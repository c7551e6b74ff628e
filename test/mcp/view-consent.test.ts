// The views' app-only tools answer within the token's consent, section by section: for every
// toolset next to each view's own, a real token (consented through the real page) calls the three
// view tools. A section of another toolset's data is in the answer only when the consent includes
// that toolset, and `withheld` names what was left out; a view that cannot be drawn without a
// section is refused, naming the toolset. Before, a visibility-only token read cited domains,
// prompt texts and owned pages through view_visibility, and an answers-only token every project
// and every prompt's totals through view_answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, json } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';
import { personWithPassword, signIn } from '../support/web.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { v1Get } from '../support/views.js';
import { seedWorkspace } from '../../src/demo/seed.js';
import { TOOLSETS } from '../../src/mcp/tools/toolsets.js';

const served = useListeningApp({ RATE_LIMIT_AGENCY: '10000/1000', RATE_LIMIT_WORKSPACE_FACTOR: '1' });
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

interface ViewExpectation {
  own: string;
  /** Toolsets without which the tool is refused. */
  needs: string[];
  /** Each optional section's path in the answer and the toolset whose data it is. */
  sections: Record<string, string>;
  /** Sections always in the answer. */
  always: string[];
}

// Written out here rather than read from the source: this is the rule the tools must keep.
const VIEWS: Record<string, ViewExpectation> = {
  view_report: {
    own: 'report_data',
    needs: ['reports'],
    sections: {},
    always: ['report', 'reportData', 'metricCatalog'],
  },
  view_visibility: {
    own: 'visibility',
    needs: [],
    sections: { 'node.sources': 'answers', 'node.opportunities': 'answers' },
    always: ['node.trend', 'node.metrics'],
  },
  view_answers: {
    own: 'answers',
    needs: [],
    sections: { aiVisibilityProjects: 'visibility', aiVisibilityPrompts: 'prompts' },
    always: ['aiVisibilityAnswers'],
  },
};

const ids = { report: '', project: '' };
let owner: { cookie: string; workspaceId: string };
let registered: TestOAuthProvider['client'];
const tokens = new Map<string, string>();

beforeAll(async () => {
  const keyed = await createKeyedWorkspace(served.t.database);
  await seedWorkspace(served.t.database.prisma, served.t.database.pool, {
    workspaceId: keyed.workspace.id,
    days: 10,
    clients: 1,
  });
  await personWithPassword(served.t.database, { email: keyed.ownerEmail });
  owner = { cookie: (await signIn(served.t.app, keyed.ownerEmail)).cookie, workspaceId: keyed.workspace.id };
  const v1 = (route: string) => v1Get(served.baseUrl, route, keyed.key.secret);
  ids.report = (await v1('/reports')).data[0].id;
  ids.project = (await v1('/ai-visibility/projects')).data[0].id;
}, 60_000);

/** A token whose consent is exactly `toolsets` (read only), one per set. */
async function tokenFor(toolsets: string[]): Promise<string> {
  const key = [...new Set(toolsets)].sort().join(',');
  if (!tokens.has(key)) {
    const provider = new TestOAuthProvider({ ...owner, toolsets: key.split(','), writes: false }, `Consent ${key}`);
    // One registered app for every consent: registrations are limited per address.
    provider.client = registered;
    await (await connectMcp(served.baseUrl, provider, '/mcp/x/all', { capabilities: UI as never })).close();
    registered ??= provider.client;
    tokens.set(key, provider.saved!.access_token);
  }
  return tokens.get(key)!;
}

interface ToolResult {
  isError?: boolean;
  content: { text: string }[];
  structuredContent?: Record<string, unknown>;
}

/** One JSON-RPC request to /mcp/x/all with `token`; its result. */
async function mcp(token: string, method: string, params: Record<string, unknown>) {
  const response = await fetch(`${served.baseUrl}/mcp/x/all`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  return (await json(response)).result;
}

const callView = (token: string, name: string, extra: Record<string, unknown> = {}): Promise<ToolResult> =>
  mcp(token, 'tools/call', { name, arguments: { id: name === 'view_report' ? ids.report : ids.project, ...extra } });
const errorOf = (result: ToolResult) => JSON.parse(result.content[0]!.text).error;

const has = (data: Record<string, unknown>, path: string) => {
  const keys = path.split('.');
  const parent = keys
    .slice(0, -1)
    .reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, data);
  return Object.hasOwn(parent, keys.at(-1)!);
};

describe('every toolset × view tool', () => {
  it.each(Object.keys(VIEWS))(
    '%s answers only the sections the consent covers, or is refused naming the toolset',
    async (name) => {
      const view = VIEWS[name]!;
      for (const other of TOOLSETS) {
        const consent = new Set([view.own, other]);
        const result = await callView(await tokenFor([...consent]), name);
        const missing = view.needs.find((toolset) => !consent.has(toolset));
        if (missing) {
          expect(result.isError, `${name} with ${[...consent]}`).toBe(true);
          expect(errorOf(result)).toMatchObject({
            code: 'forbidden',
            message: expect.stringContaining(`toolset ${missing}`),
          });
          continue;
        }
        expect(result.isError, `${name} with ${[...consent]}: ${result.content[0]?.text.slice(0, 200)}`).toBeFalsy();
        const data = result.structuredContent!;
        for (const path of view.always) expect(has(data, path), `${name} ${path}`).toBe(true);
        const withheld = Object.fromEntries(
          Object.entries(view.sections).filter(([, toolset]) => !consent.has(toolset)),
        );
        for (const [path, toolset] of Object.entries(view.sections)) {
          expect(has(data, path), `${name} with ${[...consent]}: ${path}`).toBe(consent.has(toolset));
        }
        if (Object.keys(withheld).length) expect(data.withheld).toEqual(withheld);
        else expect(data).not.toHaveProperty('withheld');
        // The text a client without structured content reads is the same answer.
        expect(JSON.parse(result.content[0]!.text)).toEqual(data);
      }
    },
    120_000,
  );

  it('refuses a view to a token without its own toolset, naming it', async () => {
    const token = await tokenFor(['prompts']);
    for (const [name, view] of Object.entries(VIEWS)) {
      const result = await callView(token, name);
      expect(result.isError).toBe(true);
      expect(errorOf(result).message).toContain(
        `toolset ${view.own}, which this connection's consent does not include`,
      );
    }
  });

  it('takes no grant from the caller: an argument named like one is refused', async () => {
    const result = await callView(await tokenFor(['visibility']), 'view_visibility', { grantsAnswers: true });
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toMatchObject({ code: 'invalid_parameter', param: 'grantsAnswers' });
  });

  it("the views' documents (resources/read) hold no workspace data, whatever the consent", async () => {
    const token = await tokenFor(['visibility']);
    const project = (await callView(token, 'view_visibility')).structuredContent!.node as {
      name: string;
      brand: string;
    };
    for (const uri of ['ui://signalboard/report', 'ui://signalboard/visibility', 'ui://signalboard/answers']) {
      const text = (await mcp(token, 'resources/read', { uri })).contents[0].text as string;
      expect(text).toMatch(/^<!doctype html>/);
      expect(text).not.toContain(project.name);
      expect(text).not.toContain(ids.project);
    }
  });
});

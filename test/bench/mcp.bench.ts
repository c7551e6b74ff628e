// npm run bench:mcp — every MCP read tool that mirrors a v1 endpoint (a real OAuth token from the
// whole flow, JSON-RPC tools/call over Streamable HTTP) against the same data through v1,
// alternated in rounds at concurrency 8 on the compiled build, and tools/list of all 68 tools.
// The data cache is off on both sides, so both compute; the ratio is the MCP layer's cost.
// Targets (issue 24): each tool p50 ≤ 1.1× its endpoint; tools/list of all 68 p50 ≤ 5 ms.
import { connectDatabase } from '../../src/db/client.js';
import {
  alternate,
  benchApiFixtures,
  benchDatabase,
  mcpAccessToken,
  printTable,
  ratio,
  runBench,
  socketClient,
  startService,
} from './harness.js';

// Per case: 11 cases and 10 baselines make the run about 2½ minutes at the default.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);

runBench(async () => {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const { workspace, report, project, key } = await benchApiFixtures(database);
  const service = await startService({
    DATABASE_URL: embedded.url,
    RATE_LIMIT_SCALE: '100000000/100000000',
    WORKSPACE_MAX_CONCURRENT_REQUESTS: '1000',
    DATA_CACHE_MAX_BYTES: '0',
    WEBHOOK_WORKER: 'false',
  });
  try {
    // Every toolset and writes on, so that tools/list shows all 68.
    const token = await mcpAccessToken(database, service.baseUrl, workspace.id, '/mcp/x/all');

    const client = socketClient(service.baseUrl);
    // Both sides send what a fetch-based client sends (MCP clients are; v1 then compresses large answers).
    const common = { 'accept-encoding': 'gzip, deflate, br' };
    const mcpCall = (method: string, params: Record<string, unknown>, path = '/mcp/x/all') => {
      const request = client.prepare(
        'POST',
        path,
        {
          ...common,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      );
      // The SDK writes a result as `{"result":{…,"isError":true},"jsonrpc":"2.0","id":n}`: the first and last bytes
      // tell.
      return async () => {
        const { status, body } = await client.send(request);
        return (
          status === 200 &&
          body.subarray(0, 16).includes('{"result":') &&
          !body.subarray(-64).includes('"isError":true')
        );
      };
    };
    const v1Call = (path: string) => {
      const request = client.prepare('GET', `/api/v1${path}`, { ...common, authorization: `Bearer ${key.secret}` });
      return async () => (await client.send(request)).status === 200;
    };

    const answer = await database.prisma.aiAnswer.findFirstOrThrow({
      where: { projectId: project.id },
      orderBy: { id: 'asc' },
    });
    const projectPath = `/ai-visibility/projects/${project.id}`;
    // Each mirroring tool with the arguments that ask it what the endpoint's query asks.
    const mirrors: { tool: string; args: Record<string, unknown>; path: string }[] = [
      { tool: 'list_clients', args: {}, path: '/clients' },
      { tool: 'list_reports', args: {}, path: '/reports' },
      { tool: 'get_report', args: { id: report.id }, path: `/reports/${report.id}` },
      {
        tool: 'get_report_data',
        args: { id: report.id, datePreset: 'last_30_days', comparePreset: 'previous_period' },
        path: `/reports/${report.id}/data?datePreset=last_30_days&comparePreset=previous_period`,
      },
      { tool: 'list_ai_visibility_projects', args: {}, path: '/ai-visibility/projects' },
      { tool: 'get_ai_visibility_metrics', args: { id: project.id }, path: `${projectPath}/metrics` },
      { tool: 'list_prompts', args: { id: project.id }, path: `${projectPath}/prompts` },
      { tool: 'list_answers', args: { id: project.id, limit: 50 }, path: `${projectPath}/answers?limit=50` },
      {
        tool: 'get_answer',
        args: { id: project.id, answerId: answer.id },
        path: `${projectPath}/answers/${answer.id}`,
      },
      { tool: 'get_cited_domains', args: { id: project.id }, path: `${projectPath}/sources` },
    ];
    // BENCH_TOOLS=list_reports,get_answer measures only those (profiling one tool).
    const only = process.env.BENCH_TOOLS?.split(',');
    const measured = only ? mirrors.filter((mirror) => only.includes(mirror.tool)) : mirrors;
    const options = { concurrency: 8, durationMs: SECONDS * 1000, rounds: 4 };
    const rows = [];
    const ratios: string[] = [];
    for (const mirror of measured) {
      const [v1, mcp] = await alternate(
        [
          { label: `v1 GET ${mirror.path.split('?')[0]}`, task: v1Call(mirror.path) },
          { label: `MCP ${mirror.tool}`, task: mcpCall('tools/call', { name: mirror.tool, arguments: mirror.args }) },
        ],
        options,
      );
      rows.push(v1!, mcp!);
      const { p50, p99 } = ratio(mcp!, v1!);
      ratios.push(
        `${mirror.tool.padEnd(28)} p50 ${p50.toFixed(2)}×  p99 ${p99.toFixed(2)}×  ${p50 <= 1.1 ? 'met' : 'NOT met'}`,
      );
    }
    // The list's target is a latency: one client, no queue behind it (at concurrency 8 on two cores the queue is most
    // of it).
    const [listAll] = await alternate(
      [{ label: 'MCP tools/list, all 68 tools (concurrency 1)', task: mcpCall('tools/list', {}) }],
      { ...options, concurrency: 1 },
    );
    const [listAllBusy] = await alternate(
      [{ label: 'MCP tools/list, all 68 tools (concurrency 8)', task: mcpCall('tools/list', {}) }],
      options,
    );
    rows.push(listAll!, listAllBusy!);
    printTable('MCP tools vs the same data through v1 (concurrency 8, data cache off, compiled build)', rows);
    console.log('MCP tool / its v1 endpoint (target p50 ≤ 1.1×):');
    for (const line of ratios) console.log(`  ${line}`);
    console.log(
      `tools/list of all 68, one client: p50 ${listAll!.p50.toFixed(2)} ms (target ≤ 5 ms); ` +
        `at concurrency 8: p50 ${listAllBusy!.p50.toFixed(2)} ms`,
    );
    client.close();
  } finally {
    await service.stop();
    await database.close();
    await embedded.stop();
  }
});

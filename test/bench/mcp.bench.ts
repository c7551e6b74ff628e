// npm run bench:mcp — get_report_data and get_ai_visibility_metrics through /mcp (a real OAuth
// token from the whole flow, JSON-RPC tools/call over Streamable HTTP) against the same data
// through v1, alternated in rounds at concurrency 8 on the compiled build. The data cache is off
// on both sides, so both compute; the ratio is the MCP layer's cost. Target: p50 ratio ≤ 1.3.
import { connectDatabase } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { hashPassword } from '../../src/sessions/passwords.js';
import { connectMcp, TestOAuthProvider } from '../support/mcp.js';
import { alternate, benchApiFixtures, benchDatabase, printTable, ratio, runBench, startService } from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PASSWORD = 'bench password for mcp';

runBench(async () => {
  const embedded = await benchDatabase();
  const database = connectDatabase(embedded.url, 4);
  const { workspace, report, project, key } = await benchApiFixtures(database);
  const email = 'bench-mcp@example.test';
  const user = (await database.prisma.user.findUnique({ where: { email } })) ?? (await database.prisma.user.create({ data: { id: newId('user'), email, name: 'Bench', passwordHash: await hashPassword(PASSWORD) } }));
  await database.prisma.membership.upsert({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: user.id } }, create: { id: newId('membership'), workspaceId: workspace.id, userId: user.id, role: 'owner' }, update: {} });

  const service = await startService({ DATABASE_URL: embedded.url, RATE_LIMIT_SCALE: '100000000/100000000', DATA_CACHE_MAX_BYTES: '0', WEBHOOK_WORKER: 'false' });
  try {
    const login = await fetch(`${service.baseUrl}/app/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: service.baseUrl }, body: JSON.stringify({ email, password: PASSWORD }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const provider = new TestOAuthProvider({ cookie, workspaceId: workspace.id }, 'Benchmark');
    const client = await connectMcp(service.baseUrl, provider);
    await client.close();
    const token = provider.saved!.access_token;

    let id = 0;
    const mcpCall = (name: string, args: Record<string, unknown>) => async () => {
      const response = await fetch(`${service.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } }),
      });
      const body = (await response.json()) as { result?: { isError?: boolean } };
      return response.ok && body.result !== undefined && !body.result.isError;
    };
    const v1Call = (path: string) => async () => {
      const response = await fetch(`${service.baseUrl}${path}`, { headers: { authorization: `Bearer ${key.secret}` } });
      await response.arrayBuffer();
      return response.ok;
    };

    const options = { concurrency: 8, durationMs: SECONDS * 1000, rounds: 4 };
    const reportRows = await alternate(
      [
        { label: 'v1 GET /reports/{id}/data', task: v1Call(`/api/v1/reports/${report.id}/data?datePreset=last_30_days&comparePreset=previous_period`) },
        { label: 'MCP get_report_data', task: mcpCall('get_report_data', { id: report.id, datePreset: 'last_30_days', comparePreset: 'previous_period' }) },
      ],
      options,
    );
    const metricsRows = await alternate(
      [
        { label: 'v1 GET /ai-visibility/projects/{id}/metrics', task: v1Call(`/api/v1/ai-visibility/projects/${project.id}/metrics`) },
        { label: 'MCP get_ai_visibility_metrics', task: mcpCall('get_ai_visibility_metrics', { id: project.id }) },
      ],
      options,
    );
    printTable('MCP tools vs the same data through v1 (concurrency 8, data cache off, compiled build)', [...reportRows, ...metricsRows]);
    const format = (value: { p50: number; p99: number }) => `p50 ${value.p50.toFixed(2)}, p99 ${value.p99.toFixed(2)}`;
    console.log(`get_report_data / v1: ${format(ratio(reportRows[1]!, reportRows[0]!))}   (target p50 ≤ 1.3)`);
    console.log(`get_ai_visibility_metrics / v1: ${format(ratio(metricsRows[1]!, metricsRows[0]!))}   (target p50 ≤ 1.3)`);
  } finally {
    await service.stop();
    await database.close();
    await embedded.stop();
  }
});

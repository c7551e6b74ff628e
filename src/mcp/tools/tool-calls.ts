// Running a tool for one connection: which tools it sees, whether it may call one (and if not,
// the real reason), its arguments checked, its token spent, its answer or tool error. Every
// `tools/call` comes here, whichever way it arrived (the SDK's server or the direct path), and
// so do resource reads, so each is metered once.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Principal } from '../../auth/index.js';
import { ApiError } from '../../errors/index.js';
import { apiErrorOf, toolFailure, type FailureSite } from '../../doors/index.js';
import { runCompiled, type GraphQLContext } from '../../graphql/context.js';
import { assertResponseSize } from '../../http/response-size.js';
import type { Metrics } from '../../observability/metrics.js';
import { contextFromCarrier, inSpan, SpanKind, tracing } from '../../observability/tracing.js';
import type { CallLedger } from './call-limits.js';
import type { ToolCallParams } from '../protocol/direct-tool-calls.js';
import type { OperationTool } from './operation-tools.js';
import { argumentError, variableArgumentError } from './tool-arguments.js';
import { toolRefusal } from './tool-access.js';
import { grantVariables, withheldSections } from './granted-sections.js';
import { structured, toolError } from './tool-results.js';
import type { Consent, ToolSelection } from './toolsets.js';
import type { WriteDeps, WriteTool } from './write-tools.js';

export type Tool = OperationTool | WriteTool;

export interface Holder {
  principal: Extract<Principal, { kind: 'oauth' }>;
  token: string;
  scopes: readonly string[];
  writeActions: boolean;
  /** What the person allowed this token: it bounds every URL's selection. */
  consent: Consent;
}

/** What one request's server is bound to. */
export interface BoundRequest {
  holder: Holder;
  selection: ToolSelection;
  requestId: string;
  /** What this request's calls spent. */
  ledger: CallLedger;
  /** A 2025-era client that declared MCP Apps at initialize (its session id says so; app-views.ts). */
  views: boolean;
  /** The HTTP request's: its tools' statements stop once its client went away. */
  signal?: AbortSignal;
}

export interface ToolCallDeps {
  writes: Omit<WriteDeps, 'principal'>;
  logger: Logger;
  contextFor(principal: Principal, requestId: string, signal?: AbortSignal): GraphQLContext;
  metrics: Pick<Metrics, 'toolCall'>;
}

const accessOf = (bound: BoundRequest) => ({
  selection: bound.selection,
  consent: bound.holder.consent,
  writeActions: bound.holder.writeActions,
  role: bound.holder.principal.role,
});

/**
 * Why an answer holds nothing: a root field answered null (no such id in the workspace), or an id of
 * another type than the one the tool reads (a report's id given to a client's tool answers `{}`).
 */
function missingRoot(tool: OperationTool, data: Record<string, unknown>): ApiError | undefined {
  for (const [key, value] of Object.entries(data)) {
    const type = tool.rootTypes[key];
    if (value === null)
      return new ApiError(
        'not_found',
        type ? `No ${type} with that id in this workspace.` : 'Nothing with that id in this workspace.',
      );
    if (type && typeof value === 'object' && Object.keys(value).length === 0)
      return new ApiError('not_found', `That id is another kind's: this tool reads ${type} ids.`);
  }
  return undefined;
}

export function createToolCalls(deps: ToolCallDeps, toolsByName: ReadonlyMap<string, Tool>) {
  /**
   * The tools this connection shows: its toolsets and read-only choice within the token's consent, the
   * person's role and the write switch.
   */
  function visibleTools(bound: BoundRequest) {
    const access = accessOf(bound);
    return [...toolsByName.values()].filter((tool) => !toolRefusal(tool, access));
  }

  /** A tool call, counted by tool (names outside the catalogue as "unknown") and outcome. */
  async function callTool(bound: BoundRequest, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const refused = await bound.ledger.admit();
    const result = refused ? toolError(refused) : bound.ledger.bounded(await runTool(bound, name, args));
    deps.metrics.toolCall(toolsByName.has(name) ? name : 'unknown', result.isError ? 'error' : 'ok');
    return result;
  }

  /** A `tools/call`, whichever way it came (the SDK's server or the direct path), traced when tracing is on. */
  function answerToolCall(bound: BoundRequest, params: ToolCallParams): Promise<CallToolResult> {
    const name = params.name;
    const call = () => callTool(bound, name, params.arguments ?? {});
    if (!tracing.on) return call();
    // Named as OpenTelemetry's MCP conventions do; a client's `_meta.traceparent` is the parent.
    return inSpan(
      `tools/call ${toolsByName.has(name) ? name : 'unknown'}`,
      { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': toolsByName.has(name) ? name : 'unknown' },
      async (span) => {
        const result = await call();
        if (result.isError) span?.setAttribute('error.type', 'tool_error');
        return result;
      },
      { kind: SpanKind.SERVER, parent: contextFromCarrier(params._meta) },
    );
  }

  async function runTool(bound: BoundRequest, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const tool = toolsByName.get(name);
    if (!tool) return toolError(new ApiError('not_found', `No tool ${String(name).slice(0, 100)}.`));
    const refusal = toolRefusal(tool, accessOf(bound));
    if (refusal) return toolError(refusal);
    const invalid = argumentError(args, (tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {});
    if (invalid) return toolError(invalid);
    const { holder, requestId } = bound;
    const site: FailureSite = { requestId, logger: deps.logger, what: 'mcp tool failed', fields: { tool: name } };
    try {
      if ('write' in tool) return structured(await tool.run({ ...deps.writes, principal: holder.principal }, args));
      const context = deps.contextFor(holder.principal, requestId, bound.signal);
      const variables = tool.sections.length ? { ...args, ...grantVariables(tool.sections, holder.consent) } : args;
      const result = await runCompiled(tool.compiled, context, variables);
      if (result.errors?.length) {
        // Arguments of the wrong type are the caller's mistake, told to them and not logged as a fault.
        return toolError(variableArgumentError(result.errors) ?? apiErrorOf(result.errors, site));
      }
      const data = result.data as Record<string, unknown>;
      const missing = missingRoot(tool, data);
      if (missing !== undefined) return toolError(missing);
      // Checked before it is serialized; the answer carries the data twice (structuredContent and its text).
      assertResponseSize(data, context.config.RESPONSE_MAX_BYTES / 2);
      const withheld = withheldSections(tool.sections, holder.consent);
      return structured(withheld ? { ...data, withheld } : data);
    } catch (error) {
      return toolFailure(error, site);
    }
  }

  return { visibleTools, callTool, answerToolCall };
}

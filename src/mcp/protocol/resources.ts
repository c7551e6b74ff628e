// Reports as MCP resources: signalboard://reports/{id} reads a report's definition (the
// get_report tool's result), so a client can attach a report to a conversation.
import type { CallToolResult } from '@modelcontextprotocol/server';

export const REPORT_URI_PREFIX = 'signalboard://reports/';

export const REPORT_RESOURCE_TEMPLATE = {
  uriTemplate: `${REPORT_URI_PREFIX}{id}`,
  name: 'report',
  title: 'Report definition',
  description:
    'A report of this workspace by id (rep_…): its widgets and date configuration. list_reports gives the ids.',
  mimeType: 'application/json',
};

export async function reportResource(uri: string, getReport: (id: string) => Promise<CallToolResult>) {
  if (!uri.startsWith(REPORT_URI_PREFIX)) return null;
  const result = await getReport(uri.slice(REPORT_URI_PREFIX.length));
  if (result.isError || !result.structuredContent) return null;
  return { uri, mimeType: 'application/json', text: JSON.stringify(result.structuredContent) };
}

// Prompts people actually use with the connector: a weekly client summary and an AI-visibility
// check-up. They only tell the model which tools to call and what to write.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

export const PROMPTS = [
  {
    name: 'weekly_client_summary',
    title: 'Weekly client summary',
    description: "A short weekly summary of one client's marketing results for an account manager.",
    arguments: [{ name: 'clientId', description: 'The client (cli_…); list_clients gives the ids.', required: true }],
    render: (args: Record<string, string>) =>
      `Write a weekly summary for client ${args.clientId}. Use get_client, then get_report_data ` +
      `for each of its reports with datePreset "last_7_days" and comparePreset "previous_period". ` +
      `Lead with the three biggest changes (relative change of KPIs), then one paragraph ` +
      `per report, then risks. If the client has AI-visibility projects, add get_competitor_benchmark ` +
      `for the last 7 days and list_signals since then. Quote numbers exactly as returned; ` +
      `rates are 0..1 — show them as percentages.`,
  },
  {
    name: 'ai_visibility_checkup',
    title: 'AI-visibility check-up',
    description: 'How a brand is doing in AI assistants against its competitors, and what changed.',
    arguments: [{ name: 'projectId', description: 'The AI-visibility project (prj_…).', required: true }],
    render: (args: Record<string, string>) =>
      `Assess AI visibility for project ${args.projectId}. Call get_ai_visibility_project, ` +
      `get_competitor_benchmark for the last 30 days, and list_signals (first: 20). Per ` +
      `locale, say where the brand stands against each competitor on visibility, share ` +
      `of voice and average position (pooled per locale — never average across locales), ` +
      `then explain each recent signal with its before/after numbers.`,
  },
];

export function renderPrompt(name: string, args: Record<string, string>) {
  const prompt = PROMPTS.find((candidate) => candidate.name === name);
  if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No prompt ${name}.`);
  const missing = prompt.arguments
    .filter((argument) => argument.required && !args[argument.name])
    .map((argument) => argument.name);
  if (missing.length)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Missing argument ${missing.join(', ')}.`);
  return {
    description: prompt.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.render(args) } }],
  };
}

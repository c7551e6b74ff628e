// MCP write tools. The GraphQL schema is read-only, so writes are declared in code, one file per
// toolset (write-tools/), each calling the same domain code as the CLI, which validates
// definitions, models and thresholds exactly as it does there. They exist only while the
// workspace's write switch is on; each change is audited with the OAuth client's name.
import type { WriteTool } from './write-tools/declare.js';
import { CLIENT_WRITE_TOOLS } from './write-tools/clients.js';
import { REPORT_WRITE_TOOLS } from './write-tools/reports.js';
import { VISIBILITY_WRITE_TOOLS } from './write-tools/visibility.js';
import { PROMPT_WRITE_TOOLS } from './write-tools/prompts.js';
import { SIGNAL_WRITE_TOOLS } from './write-tools/signals.js';
import { WEBHOOK_WRITE_TOOLS } from './write-tools/webhooks.js';

export type { WriteDeps, WriteTool } from './write-tools/declare.js';

export const WRITE_TOOLS: readonly WriteTool[] = [
  ...CLIENT_WRITE_TOOLS,
  ...REPORT_WRITE_TOOLS,
  ...VISIBILITY_WRITE_TOOLS,
  ...PROMPT_WRITE_TOOLS,
  ...WEBHOOK_WRITE_TOOLS,
  ...SIGNAL_WRITE_TOOLS,
];
